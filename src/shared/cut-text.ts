// Text cut to a length the service counts in code points (docs/protocol.md §2.1), at a character
// boundary the reader sees: an emoji made of several code points (a flag, a family, a skin tone)
// is kept whole or left out whole, never split into something else.

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** `text` cut to at most `max` code points, ending on a whole character. */
export function cutToCodePoints(text: string, max: number): string {
  let kept = ''
  let count = 0
  for (const { segment } of graphemes.segment(text)) {
    const size = [...segment].length
    if (count + size > max) break
    kept += segment
    count += size
  }
  return kept
}
