// jsdom lays nothing out: every size and position reads 0, and scrolling does nothing. This gives
// the message history a layout of its own (a 400 px viewport, every row of its list 40 px high,
// stacked in document order, and each chunk of rows as tall as its rows) so that component tests
// can scroll it and see which rows are in view.

export const ROW_HEIGHT = 40
export const VIEWPORT_HEIGHT = 400

type Patched = 'clientHeight' | 'scrollHeight' | 'scrollTop' | 'offsetHeight' | 'getBoundingClientRect'

/** Installs the layout; returns what takes it away again. */
export function layOutHistory(): () => void {
  const scrollTops = new WeakMap<Element, number>()
  const isViewport = (element: Element): boolean => element.getAttribute('aria-label') === 'Message history'
  const viewportOf = (element: Element): Element | null => element.closest('[aria-label="Message history"]')
  const rowsIn = (viewport: Element): Element[] => [...viewport.querySelectorAll('li')]
  const contentHeight = (viewport: Element): number => Math.max(rowsIn(viewport).length * ROW_HEIGHT, VIEWPORT_HEIGHT)
  const scrollTopOf = (viewport: Element): number => scrollTops.get(viewport) ?? 0
  const originalRect = Element.prototype.getBoundingClientRect

  const patches: Record<Patched, PropertyDescriptor> = {
    clientHeight: {
      get(this: Element) {
        return isViewport(this) ? VIEWPORT_HEIGHT : 0
      }
    },
    scrollHeight: {
      get(this: Element) {
        return isViewport(this) ? contentHeight(this) : 0
      }
    },
    scrollTop: {
      get(this: Element) {
        return scrollTopOf(this)
      },
      set(this: Element, value: number) {
        if (isViewport(this)) scrollTops.set(this, Math.min(Math.max(0, value), contentHeight(this) - VIEWPORT_HEIGHT))
      }
    },
    offsetHeight: {
      get(this: Element) {
        return this.tagName === 'LI' ? ROW_HEIGHT : 0
      }
    },
    getBoundingClientRect: {
      value(this: Element): DOMRect {
        if (isViewport(this)) return new DOMRect(0, 0, 800, VIEWPORT_HEIGHT)
        const viewport = viewportOf(this)
        if (viewport === null) return originalRect.call(this)
        const topOf = (row: Element): number => rowsIn(viewport).indexOf(row) * ROW_HEIGHT - scrollTopOf(viewport)
        if (this.tagName === 'LI') return new DOMRect(0, topOf(this), 800, ROW_HEIGHT)
        const first = this.hasAttribute('data-chunk') ? this.querySelector('li') : null
        if (first === null) return originalRect.call(this)
        return new DOMRect(0, topOf(first), 800, this.querySelectorAll('li').length * ROW_HEIGHT)
      }
    }
  }

  const originals = new Map<Patched, PropertyDescriptor | undefined>()
  for (const [name, descriptor] of Object.entries(patches) as [Patched, PropertyDescriptor][]) {
    const owner = name === 'offsetHeight' ? HTMLElement.prototype : Element.prototype
    originals.set(name, Object.getOwnPropertyDescriptor(owner, name))
    Object.defineProperty(owner, name, { ...descriptor, configurable: true })
  }
  return () => {
    for (const [name, descriptor] of originals) {
      const owner = name === 'offsetHeight' ? HTMLElement.prototype : Element.prototype
      if (descriptor) Object.defineProperty(owner, name, descriptor)
      else Reflect.deleteProperty(owner, name)
    }
  }
}
