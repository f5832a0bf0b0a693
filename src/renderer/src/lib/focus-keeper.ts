// Focus never falls to the page's body. It does whenever the focused element leaves the page (the
// conversation a Leave group button was in, a menu item that opened a dialog, a dialog's opener
// gone by the time it closes): a keyboard user is then thrown back to the top of the page, and a
// screen reader says nothing of where they are. Each place that knows better moves focus itself;
// this catches the rest. After the DOM changes, if focus is on the body and the element that had it
// is gone, it goes to the page's fallback: the first element marked `data-focus-fallback` (a notice
// of what just happened, say), else the main region. Focus falls to the body too when its button is
// disabled while a call is out: it goes back to the button once enabled again (a call that failed),
// unless the person put it somewhere meanwhile.

/** Marks an element as where focus goes when its holder leaves the page. */
export const FOCUS_FALLBACK = 'data-focus-fallback'

/** The element focus goes to when what had it is gone; null when the page has none. */
export function fallbackOf(root: Document): HTMLElement | null {
  for (const element of root.querySelectorAll<HTMLElement>(`[${FOCUS_FALLBACK}]`)) if (element.isConnected) return element
  return root.querySelector<HTMLElement>('main')
}

function focusable(element: Element): boolean {
  return element.isConnected && !element.matches(':disabled')
}

/** Watches the document; returns what stops watching. */
export function keepFocusOnPage(root: Document = document): () => void {
  let holder: Element | null = null
  const observer = new MutationObserver(() => {
    const active = root.activeElement
    if (active !== null && active !== root.body) return
    if (holder === null) return
    if (holder.isConnected) {
      if (focusable(holder) && holder instanceof HTMLElement) holder.focus()
      return
    }
    watch(null)
    const fallback = fallbackOf(root)
    if (fallback === null) return
    // A region or a line of text takes focus only from script: say so, or focus() does nothing.
    if (fallback.tabIndex < 0 && !fallback.hasAttribute('tabindex')) fallback.setAttribute('tabindex', '-1')
    fallback.focus()
  })
  // Focus leaves with its holder when the holder or an element above it is taken from its parent,
  // and falls from it when one of them is disabled: only those elements are watched, each for its
  // own children and its own disabled. Watching the whole page made a record of every change to it
  // (thousands as a conversation opens, tens of ms on a slow machine) to look at none of them.
  function watch(element: Element | null): void {
    observer.disconnect()
    holder = element
    for (let node = element; node !== null; node = node.parentElement) {
      observer.observe(node, { childList: true, attributes: true, attributeFilter: ['disabled'] })
    }
  }
  const noted = (event: FocusEvent) => {
    if (event.target instanceof Element) watch(event.target)
  }
  // Focus put nowhere while its holder stays focusable (a click on the page's background): the
  // person's doing, and nothing to restore should that element go later.
  const left = (event: FocusEvent) => {
    const target = event.target
    queueMicrotask(() => {
      if (holder === target && target instanceof Element && focusable(target) && root.activeElement === root.body) watch(null)
    })
  }
  watch(root.activeElement === root.body ? null : root.activeElement)
  root.addEventListener('focusin', noted, true)
  root.addEventListener('focusout', left, true)
  return () => {
    observer.disconnect()
    root.removeEventListener('focusin', noted, true)
    root.removeEventListener('focusout', left, true)
  }
}
