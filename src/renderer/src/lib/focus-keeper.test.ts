import { afterEach, describe, expect, it } from 'vitest'
import { keepFocusOnPage } from './focus-keeper'

/** MutationObserver callbacks run as microtasks: let them. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('keepFocusOnPage', () => {
  let stop: () => void = () => {}
  afterEach(() => {
    stop()
    document.body.innerHTML = ''
  })

  function page(html: string): void {
    document.body.innerHTML = html
    stop = keepFocusOnPage(document)
  }

  it('moves focus to the marked fallback when the focused element leaves the page', async () => {
    page('<main><section id="pane"><button id="leave">Leave group</button></section><p id="notice" data-focus-fallback tabindex="-1">You left Book club.</p></main>')
    document.getElementById('leave')?.focus()
    document.getElementById('pane')?.remove()
    await settled()
    expect(document.activeElement?.id).toBe('notice')
  })

  it('falls back to the main region, made focusable from script, when nothing is marked', async () => {
    page('<main id="main"><div id="menu"><button id="item">Pictures</button></div></main>')
    document.getElementById('item')?.focus()
    document.getElementById('menu')?.remove()
    await settled()
    expect(document.activeElement?.id).toBe('main')
    expect(document.getElementById('main')?.getAttribute('tabindex')).toBe('-1')
  })

  it('gives focus back to a button disabled under it once it is enabled again, or to the fallback once it is gone', async () => {
    page('<main><p id="notice" data-focus-fallback tabindex="-1">Said</p><div id="form"><button id="send">Send</button></div></main>')
    const send = document.getElementById('send') as HTMLButtonElement
    send.focus()
    // A browser lets focus fall to the body from a button disabled under it; jsdom keeps it there,
    // and lets it fall only from an element taken out of the page (here, and put straight back).
    const fallFrom = (button: HTMLButtonElement) => {
      button.disabled = true
      const parent = button.parentElement
      button.remove()
      parent?.append(button)
    }
    fallFrom(send)
    await settled()
    expect(document.activeElement).toBe(document.body)
    send.disabled = false
    await settled()
    expect(document.activeElement).toBe(send)

    fallFrom(send)
    await settled()
    document.getElementById('form')?.remove()
    await settled()
    expect(document.activeElement?.id).toBe('notice')
  })

  it('leaves focus alone when what had it is still there, or focus went elsewhere', async () => {
    page('<main><button id="a">A</button><div id="gone"><button id="b">B</button></div><input id="search" data-focus-fallback /></main>')
    document.getElementById('a')?.focus()
    document.getElementById('gone')?.remove()
    await settled()
    expect(document.activeElement?.id).toBe('a')

    document.getElementById('a')?.blur()
    document.body.append(document.createElement('div'))
    await settled()
    // The person put focus nowhere (a click on the page's background, say): that is theirs to do,
    // even when the element they left goes later.
    expect(document.activeElement).toBe(document.body)
    document.getElementById('a')?.remove()
    await settled()
    expect(document.activeElement).toBe(document.body)
  })
})
