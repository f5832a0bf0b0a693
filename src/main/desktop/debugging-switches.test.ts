import { describe, expect, it } from 'vitest'
import { remoteDebuggingSwitch } from './debugging-switches'

const launchedWith = (...switches: string[]) => (name: string) => switches.includes(name)

describe('remoteDebuggingSwitch', () => {
  it('names either of Chromium’s remote-debugging switches', () => {
    expect(remoteDebuggingSwitch(launchedWith('remote-debugging-port'))).toBe('remote-debugging-port')
    expect(remoteDebuggingSwitch(launchedWith('no-sandbox', 'remote-debugging-pipe'))).toBe('remote-debugging-pipe')
  })

  it('is null for a launch without them', () => {
    expect(remoteDebuggingSwitch(launchedWith())).toBeNull()
    expect(remoteDebuggingSwitch(launchedWith('enable-logging', 'remote-allow-origins'))).toBeNull()
  })
})
