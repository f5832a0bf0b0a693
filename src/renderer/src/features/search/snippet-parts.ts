// A search snippet as the pieces to draw: plain text and marked text, in order. The marks come as
// offsets from main, never as markup, so whatever a message says stays text; offsets that do not
// fit the text (out of range, backwards, overlapping) are dropped rather than trusted.
import type { SearchSnippet } from '@shared/search'

export interface SnippetPart {
  text: string
  marked: boolean
}

export function snippetParts(snippet: SearchSnippet): SnippetPart[] {
  const { text } = snippet
  const parts: SnippetPart[] = []
  let at = 0
  for (const { start, end } of snippet.marks) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > text.length) continue
    if (start > at) parts.push({ text: text.slice(at, start), marked: false })
    parts.push({ text: text.slice(start, end), marked: true })
    at = end
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false })
  return parts
}
