// Page Up, Page Down, Home and End in the message history, wherever the focus is inside it (the
// history itself, a message row, a link or a button in one). The history draws only some of its
// rows, so the browser's own End would stop at the last row drawn, not at the newest message; and
// it scrolls at once, as the keys are pressed. Keys something inside took (a toolbar's Home and
// End) and keys of a field (a caret's Home and End) are left alone.

const KEYS = ['PageUp', 'PageDown', 'Home', 'End'] as const
type HistoryKey = (typeof KEYS)[number]

/** How far a page goes: most of the view, so the line at its edge is still there to read on from. */
export const PAGE_SHARE = 0.9

export interface HistoryScroll {
  /** The scroller. */
  viewport: HTMLElement
  /** End: the newest messages, which may not be drawn yet. */
  toNewest: () => void
}

/** Scrolls the history for the key; says whether it took it (and then the browser must not). */
export function scrollHistoryByKey(event: KeyboardEvent, { viewport, toNewest }: HistoryScroll): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false
  if (!isHistoryKey(event.key) || typesText(event.target)) return false
  switch (event.key) {
    case 'PageUp':
    case 'PageDown': {
      const page = Math.max(viewport.clientHeight * PAGE_SHARE, 40)
      viewport.scrollTop += event.key === 'PageUp' ? -page : page
      break
    }
    case 'Home':
      // The oldest drawn; older ones are drawn (or loaded) above as the top comes near, as when scrolling.
      viewport.scrollTop = 0
      break
    case 'End':
      toNewest()
      break
  }
  return true
}

function isHistoryKey(key: string): key is HistoryKey {
  return (KEYS as readonly string[]).includes(key)
}

/** A field whose own keys these are: a text box, a list box, an editable region. */
function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'color'].includes(target.type)
}
