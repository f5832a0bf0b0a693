// The unread badge, drawn pixel by pixel with a tiny built-in font: main has no canvas to write
// text with. A red rounded square with the count in white, crisp at tray sizes (16 to 32 pixels).
import { blankBitmap, setPixel, type Bitmap, type Rgba } from './bitmap'

const RED: Rgba = [0xd9, 0x30, 0x25, 0xff]
const WHITE: Rgba = [0xff, 0xff, 0xff, 0xff]

/** Each character is 3 pixels wide and 5 high, before scaling; '#' is ink. */
const GLYPHS: Record<string, readonly string[]> = {
  '0': ['###', '#.#', '#.#', '#.#', '###'],
  '1': ['.#.', '##.', '.#.', '.#.', '###'],
  '2': ['###', '..#', '###', '#..', '###'],
  '3': ['###', '..#', '###', '..#', '###'],
  '4': ['#.#', '#.#', '###', '..#', '..#'],
  '5': ['###', '#..', '###', '..#', '###'],
  '6': ['###', '#..', '###', '#.#', '###'],
  '7': ['###', '..#', '..#', '.#.', '.#.'],
  '8': ['###', '#.#', '###', '#.#', '###'],
  '9': ['###', '#.#', '###', '..#', '###'],
  '+': ['...', '.#.', '###', '.#.', '...']
}
const GLYPH_WIDTH = 3
const GLYPH_HEIGHT = 5
/** Blank columns between characters, before scaling. */
const SPACING = 1
/** The square's corners are rounded with this fraction of its side. */
const CORNER = 0.35
/** Samples per pixel along each axis, to smooth the rounded corners. */
const SMOOTHING = 4

export interface BadgeText {
  text: string
  /** Each font pixel is drawn as a square this many pixels wide. */
  scale: number
}

/**
 * What a badge `size` pixels square says for `count`: the count itself where it fits, else "99+"
 * or "9+" (still true: there are more than that). Large, readable digits come first, so a small
 * badge says "9+" rather than a count too small to read. Null for no badge at all.
 */
export function badgeText(count: number, size: number): BadgeText | null {
  if (count <= 0) return null
  const candidates = [count <= 99 ? String(count) : null, count > 99 ? '99+' : null, '9+'].filter((text) => text !== null)
  // A pixel of margin on each side, so white never touches the edge.
  const room = size - 2
  for (let scale = Math.max(1, Math.floor(size / 8)); scale >= 1; scale--) {
    const fitting = candidates.find((text) => textWidth(text, scale) <= room && GLYPH_HEIGHT * scale <= room)
    if (fitting !== undefined) return { text: fitting, scale }
  }
  return null
}

/** The badge for `count` unread messages, `size` pixels square; transparent when there are none. */
export function badgeBitmap(count: number, size: number): Bitmap {
  const bitmap = blankBitmap(size, size)
  const text = badgeText(count, size)
  if (text === null) return bitmap
  paintRoundedSquare(bitmap)
  paintText(bitmap, text)
  return bitmap
}

function textWidth(text: string, scale: number): number {
  return (text.length * (GLYPH_WIDTH + SPACING) - SPACING) * scale
}

function paintRoundedSquare(bitmap: Bitmap): void {
  const size = bitmap.width
  const radius = size * CORNER
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let inside = 0
      for (let sampleY = 0; sampleY < SMOOTHING; sampleY++) {
        for (let sampleX = 0; sampleX < SMOOTHING; sampleX++) {
          const pointX = x + (sampleX + 0.5) / SMOOTHING
          const pointY = y + (sampleY + 0.5) / SMOOTHING
          if (inRoundedSquare(pointX, pointY, size, radius)) inside++
        }
      }
      if (inside === 0) continue
      const [red, green, blue, alpha] = RED
      setPixel(bitmap, x, y, [red, green, blue, Math.round((alpha * inside) / SMOOTHING ** 2)])
    }
  }
}

function inRoundedSquare(x: number, y: number, size: number, radius: number): boolean {
  // Distance past the straight edges, towards the nearest corner's centre.
  const beyondX = Math.max(radius - x, x - (size - radius), 0)
  const beyondY = Math.max(radius - y, y - (size - radius), 0)
  return beyondX ** 2 + beyondY ** 2 <= radius ** 2
}

function paintText(bitmap: Bitmap, { text, scale }: BadgeText): void {
  const left = Math.floor((bitmap.width - textWidth(text, scale)) / 2)
  const top = Math.floor((bitmap.height - GLYPH_HEIGHT * scale) / 2)
  ;[...text].forEach((character, index) => {
    const glyph = GLYPHS[character] ?? []
    const glyphLeft = left + index * (GLYPH_WIDTH + SPACING) * scale
    glyph.forEach((row, glyphY) => {
      ;[...row].forEach((cell, glyphX) => {
        if (cell !== '#') return
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) setPixel(bitmap, glyphLeft + glyphX * scale + dx, top + glyphY * scale + dy, WHITE)
        }
      })
    })
  })
}
