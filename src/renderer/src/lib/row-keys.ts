// ↑/↓ between the rows of a list whose rows are each one button (the conversation list, the search
// results): focus goes to the next or previous row's button and stays at the ends. Alt with an
// arrow is the app's own (the next or previous conversation), so it is left to pass.

/**
 * Handles a key pressed in such a list (its `onkeydown`). `beforeFirst`: where ↑ from the first row
 * goes instead of staying (the search box above the results, say).
 */
export function moveBetweenRows(event: KeyboardEvent, beforeFirst?: () => void): void {
  if ((event.key !== 'ArrowDown' && event.key !== 'ArrowUp') || event.altKey) return
  const list = event.currentTarget
  if (!(list instanceof HTMLElement)) return
  const buttons = [...list.querySelectorAll<HTMLButtonElement>(':scope > li > button')]
  const index = buttons.indexOf(document.activeElement as HTMLButtonElement)
  if (index === -1) return
  event.preventDefault()
  if (event.key === 'ArrowUp' && index === 0 && beforeFirst !== undefined) beforeFirst()
  else buttons[event.key === 'ArrowDown' ? Math.min(index + 1, buttons.length - 1) : Math.max(index - 1, 0)]?.focus()
}
