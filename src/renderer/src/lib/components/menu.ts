/** One line of a `MenuButton`'s menu. */
export type MenuEntry =
  | { kind: 'action'; label: string; onSelect: () => void }
  /** One of a set of choices: checked shows which is in force. */
  | { kind: 'radio'; label: string; checked: boolean; onSelect: () => void }
  /** Something on or off, such as a side panel: checked while it is on. */
  | { kind: 'check'; label: string; checked: boolean; onSelect: () => void }
  | { kind: 'separator' }

/** The vertical extent of a box on screen, as `getBoundingClientRect` gives it. */
export interface VerticalSpan {
  top: number
  bottom: number
}

/**
 * Whether a menu of this height should open above its button: when it would run past the bottom
 * of the area that clips it (the history's scroller for a message's menu, else the window) and
 * there is more room above the button than below.
 */
export function opensUpward(button: VerticalSpan, menuHeight: number, clip: VerticalSpan): boolean {
  const below = clip.bottom - button.bottom
  const above = button.top - clip.top
  return menuHeight > below && above > below
}

/** The box that clips `element`: its nearest scrolling ancestor, or the window. */
export function clippingSpan(element: Element): VerticalSpan {
  for (let ancestor = element.parentElement; ancestor !== null; ancestor = ancestor.parentElement) {
    const overflow = getComputedStyle(ancestor).overflowY
    if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') return ancestor.getBoundingClientRect()
  }
  return { top: 0, bottom: window.innerHeight }
}
