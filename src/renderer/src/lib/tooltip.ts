// A name shown beside an icon button while it is hovered or focused: the button's own accessible
// name (its hidden words) made visible, so the tooltip itself is hidden from screen readers, which
// read the name already. One element serves every button; it is a manual popover, so it draws in
// the top layer, over a modal dialog too, and it goes on leaving, blurring, clicking or Escape.

const HOVER_DELAY_MS = 400
const GAP_PX = 6

let bubble: HTMLElement | null = null
let owner: HTMLElement | null = null
let timer: ReturnType<typeof setTimeout> | null = null

function theBubble(): HTMLElement {
  if (bubble?.isConnected) return bubble
  bubble = document.createElement('div')
  bubble.className = 'tooltip'
  bubble.setAttribute('aria-hidden', 'true')
  bubble.popover = 'manual'
  document.body.append(bubble)
  return bubble
}

function cancel(): void {
  if (timer !== null) clearTimeout(timer)
  timer = null
}

/** Whether the page draws popovers (Chromium and Electron do; a test's jsdom does not): no tooltip where not. */
function popoversDrawn(): boolean {
  return typeof HTMLElement.prototype.showPopover === 'function'
}

function show(target: HTMLElement, text: string): void {
  cancel()
  if (!popoversDrawn()) return
  const shown = theBubble()
  owner = target
  shown.textContent = text
  if (!shown.matches(':popover-open')) shown.showPopover()
  // Below the button, centred on it and kept inside the window; above it where there is no room below.
  const anchor = target.getBoundingClientRect()
  const size = shown.getBoundingClientRect()
  const left = Math.min(Math.max(GAP_PX, anchor.left + anchor.width / 2 - size.width / 2), window.innerWidth - size.width - GAP_PX)
  const below = anchor.bottom + GAP_PX
  const top = below + size.height <= window.innerHeight ? below : anchor.top - GAP_PX - size.height
  shown.style.left = `${Math.max(0, left)}px`
  shown.style.top = `${Math.max(0, top)}px`
}

function hide(target: HTMLElement): void {
  cancel()
  if (owner !== target) return
  owner = null
  if (popoversDrawn() && bubble?.matches(':popover-open')) bubble.hidePopover()
}

/**
 * Shows `text` by `target` on hover (after a short pause) and on keyboard focus. Returns what
 * removes it again.
 */
export function attachTooltip(target: HTMLElement, text: string): () => void {
  const onEnter = (): void => {
    cancel()
    timer = setTimeout(() => show(target, text), HOVER_DELAY_MS)
  }
  const onFocus = (): void => {
    // A click focuses too; the name is for the keyboard, which focuses without pointing.
    if (target.matches(':focus-visible')) show(target, text)
  }
  const onLeave = (): void => hide(target)
  const onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && owner === target) hide(target)
  }
  target.addEventListener('pointerenter', onEnter)
  target.addEventListener('pointerleave', onLeave)
  target.addEventListener('focus', onFocus)
  target.addEventListener('blur', onLeave)
  target.addEventListener('pointerdown', onLeave)
  target.addEventListener('keydown', onKeydown)
  return () => {
    hide(target)
    target.removeEventListener('pointerenter', onEnter)
    target.removeEventListener('pointerleave', onLeave)
    target.removeEventListener('focus', onFocus)
    target.removeEventListener('blur', onLeave)
    target.removeEventListener('pointerdown', onLeave)
    target.removeEventListener('keydown', onKeydown)
  }
}
