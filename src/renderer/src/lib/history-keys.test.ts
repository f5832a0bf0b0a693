import { describe, expect, it, vi } from 'vitest'
import { PAGE_SHARE, scrollHistoryByKey } from './history-keys'

/** A history 500 pixels high, scrolled 2000 down, with a row holding a button and a text box. */
function history() {
  const viewport = document.createElement('div')
  Object.defineProperty(viewport, 'clientHeight', { value: 500 })
  viewport.innerHTML = '<ol><li tabindex="-1"><button>React</button><input type="text" aria-label="Add an option"><textarea></textarea></li></ol>'
  viewport.scrollTop = 2000
  const toNewest = vi.fn()
  const press = (target: Element, key: string, init: KeyboardEventInit = {}): boolean => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })
    Object.defineProperty(event, 'target', { value: target })
    return scrollHistoryByKey(event, { viewport, toNewest })
  }
  return { viewport, toNewest, press, row: viewport.querySelector('li') as HTMLElement }
}

describe('scrollHistoryByKey', () => {
  it('pages up and down by most of the view, from the history or anything in a row', () => {
    const { viewport, press, row } = history()
    expect(press(viewport, 'PageUp')).toBe(true)
    expect(viewport.scrollTop).toBe(2000 - 500 * PAGE_SHARE)
    expect(press(row, 'PageDown')).toBe(true)
    expect(press(row.querySelector('button') as Element, 'PageDown')).toBe(true)
    expect(viewport.scrollTop).toBe(2000 + 500 * PAGE_SHARE)
  })

  it('Home goes to the top of what is drawn, End to the newest messages', () => {
    const { viewport, press, toNewest } = history()
    expect(press(viewport, 'End')).toBe(true)
    expect(toNewest).toHaveBeenCalledOnce()
    expect(press(viewport, 'Home')).toBe(true)
    expect(viewport.scrollTop).toBe(0)
  })

  it('leaves the keys of a text field, keys taken nearer the focus, and keys with a modifier', () => {
    const { viewport, press, row, toNewest } = history()
    expect(press(row.querySelector('input') as Element, 'Home')).toBe(false)
    expect(press(row.querySelector('textarea') as Element, 'End')).toBe(false)
    expect(press(viewport, 'End', { ctrlKey: true })).toBe(false)
    expect(press(viewport, 'PageDown', { shiftKey: true })).toBe(false)
    expect(press(viewport, 'ArrowDown')).toBe(false)
    const taken = new KeyboardEvent('keydown', { key: 'Home', cancelable: true })
    taken.preventDefault()
    expect(scrollHistoryByKey(taken, { viewport, toNewest })).toBe(false)
    expect(viewport.scrollTop).toBe(2000)
    expect(toNewest).not.toHaveBeenCalled()
  })
})
