import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { GlobalKeys } from './global-keys.svelte'

function press(key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })
  document.body.dispatchEvent(event)
  return event
}

function keys(mac = false) {
  const actions = { goTo: vi.fn(), showShortcuts: vi.fn(), step: vi.fn(), searchMessages: vi.fn() }
  const global = new GlobalKeys(actions, mac)
  const stop = global.listen(window)
  onTestFinished(stop)
  return { global, actions, stop }
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('GlobalKeys', () => {
  it('acts on the shortcuts of the list, with the platform’s command key, and takes them from the browser', () => {
    const { actions } = keys()
    expect(press('k', { ctrlKey: true, code: 'KeyK' }).defaultPrevented).toBe(true)
    expect(actions.goTo).toHaveBeenCalledOnce()
    press('/', { ctrlKey: true, code: 'Slash' })
    expect(actions.showShortcuts).toHaveBeenCalledOnce()
    press('ArrowDown', { altKey: true })
    press('ArrowUp', { altKey: true })
    press('ArrowDown', { altKey: true, shiftKey: true })
    press('ArrowUp', { altKey: true, shiftKey: true })
    expect(actions.step.mock.calls).toEqual([
      [1, false],
      [-1, false],
      [1, true],
      [-1, true]
    ])
    // Ctrl+F searches the open conversation, with Shift every one, and the browser's own Find does not open.
    expect(press('f', { ctrlKey: true, code: 'KeyF' }).defaultPrevented).toBe(true)
    press('F', { ctrlKey: true, shiftKey: true, code: 'KeyF' })
    expect(actions.searchMessages.mock.calls).toEqual([[true], [false]])
    expect(press('ArrowDown').defaultPrevented).toBe(false)
    expect(press('k', { metaKey: true, code: 'KeyK' }).defaultPrevented).toBe(false)
  })

  it('on macOS, Cmd is the command key', () => {
    const { actions } = keys(true)
    press('k', { metaKey: true, code: 'KeyK' })
    press('k', { ctrlKey: true, code: 'KeyK' })
    expect(actions.goTo).toHaveBeenCalledOnce()
  })

  it('leaves a key taken nearer the focus, and every key while a modal dialog is open, whose Escape the browser handles', () => {
    const { global, actions } = keys()
    const panel = vi.fn(() => true)
    global.addEscapeLayer('panel', panel)
    const input = document.body.appendChild(document.createElement('input'))
    input.addEventListener('keydown', (event) => event.preventDefault())
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }))
    expect(panel).not.toHaveBeenCalled()
    input.remove()

    const dialog = document.body.appendChild(document.createElement('dialog'))
    dialog.setAttribute('open', '')
    expect(press('Escape').defaultPrevented).toBe(false)
    press('k', { ctrlKey: true, code: 'KeyK' })
    expect(panel).not.toHaveBeenCalled()
    expect(actions.goTo).not.toHaveBeenCalled()
  })

  it('Escape closes the newest open panel, then clears a search, then does nothing', () => {
    const { global } = keys()
    let searching = true
    const open = new Set(['older panel', 'newer panel'])
    const closed: string[] = []
    const layer = (name: string) => () => {
      if (!open.has(name)) return false
      open.delete(name)
      closed.push(name)
      return true
    }
    global.addEscapeLayer('search', () => {
      if (!searching) return false
      searching = false
      closed.push('search')
      return true
    })
    global.addEscapeLayer('panel', layer('older panel'))
    const removeNewer = global.addEscapeLayer('panel', layer('newer panel'))

    expect(press('Escape').defaultPrevented).toBe(true)
    expect(closed).toEqual(['newer panel'])
    removeNewer()
    press('Escape')
    press('Escape')
    expect(closed).toEqual(['newer panel', 'older panel', 'search'])
    expect(press('Escape').defaultPrevented).toBe(false)
  })

  it('stops listening when told', () => {
    const { actions, stop } = keys()
    stop()
    press('k', { ctrlKey: true, code: 'KeyK' })
    expect(actions.goTo).not.toHaveBeenCalled()
  })
})
