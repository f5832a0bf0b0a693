// Timing the opening of a conversation in the page itself: from the click (a capture listener) to
// the first animation frame in which the newest message's row is inside the history's viewport.
import type { Page } from 'playwright-core'

// A string, not a function: tsx may wrap a compiled function in helpers (`__name`) the page lacks.
const WATCH = `(text) => {
  const now = () => performance.timeOrigin + performance.now()
  let clickedAt = null
  window.addEventListener('click', () => { if (clickedAt === null) clickedAt = now() }, { capture: true, once: true })
  // Seeded 16 at a time, the newest text is among the last rows, not always the very last.
  const shown = () => {
    const viewport = document.querySelector('[role="region"][aria-label="Message history"]')
    if (!viewport) return false
    const rows = viewport.querySelectorAll('[aria-label="Messages"] li[data-message-id]')
    const area = viewport.getBoundingClientRect()
    for (let index = rows.length - 1; index >= Math.max(0, rows.length - 20); index--) {
      const row = rows[index]
      if (text !== null && !row.textContent.includes(text)) continue
      const box = row.getBoundingClientRect()
      return box.height > 0 && box.bottom > area.top && box.top < area.bottom
    }
    return false
  }
  window.__opened = new Promise((resolve) => {
    const check = () => {
      if (clickedAt !== null && shown()) resolve(now() - clickedAt)
      else requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  })
}`

/**
 * Clicks `target` and resolves with the milliseconds, on the page's clock, from the click to the
 * newest message (`newestText`, or any last row when null) being in view.
 */
export async function timeOpen(page: Page, click: () => Promise<void>, newestText: string | null): Promise<number> {
  await page.evaluate(`(${WATCH})(${JSON.stringify(newestText)})`)
  await click()
  return (await page.evaluate('window.__opened')) as number
}
