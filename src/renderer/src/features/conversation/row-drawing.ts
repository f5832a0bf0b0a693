// How the history tells the rows it draws whether they are drawn ahead of being seen: part of a
// batch drawn while the user scrolls, when every millisecond of the frame counts, or above the view
// when a conversation opens at its newest messages, where the first frame is what the user waits
// for. Such a row puts off what only hovering or focusing it shows (its actions toolbar, as dear to
// create and lay out as the rest of the row) until the page is idle, or until the pointer or focus
// comes to it.
import { getContext, setContext } from 'svelte'

export interface RowDrawing {
  /** The row of this message, created now, is drawn ahead of being seen. */
  drawnAhead(messageId: string): boolean
  /** Runs a job when the page is idle; returns what cancels it. */
  later(job: () => void): () => void
  /** Changes a drawn row's height (a picture's box, once it is measured) keeping the reader's place. */
  resizing(change: () => void): void
}

const KEY = Symbol('row-drawing')

export function provideRowDrawing(drawing: RowDrawing): void {
  setContext(KEY, drawing)
}

export function rowDrawing(): RowDrawing | undefined {
  return getContext<RowDrawing | undefined>(KEY)
}
