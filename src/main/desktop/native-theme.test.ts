import { beforeEach, describe, expect, it, vi } from 'vitest'
import { followTheme } from './native-theme'

const nativeTheme = vi.hoisted(() => {
  let source = 'system'
  return {
    writes: [] as string[],
    get themeSource() {
      return source
    },
    set themeSource(value: string) {
      this.writes.push(value)
      source = value
    }
  }
})

vi.mock('electron', () => ({ nativeTheme }))

beforeEach(() => {
  nativeTheme.themeSource = 'system'
  nativeTheme.writes.length = 0
})

describe('followTheme', () => {
  it('sets the system theme source to the chosen theme', () => {
    followTheme('dark')
    expect(nativeTheme.themeSource).toBe('dark')
    followTheme('system')
    expect(nativeTheme.themeSource).toBe('system')
  })

  it('leaves an unchanged theme alone, since every write repaints the app', () => {
    followTheme('light')
    followTheme('light')
    expect(nativeTheme.writes).toEqual(['light'])
  })
})
