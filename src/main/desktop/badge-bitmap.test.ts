import { describe, expect, it } from 'vitest'
import { pixelAt, type Bitmap } from './bitmap'
import { badgeBitmap, badgeText } from './badge-bitmap'

const RED = [0xd9, 0x30, 0x25, 0xff]
const WHITE = [0xff, 0xff, 0xff, 0xff]

/** The badge as text art: '#' white, 'r' red, '.' transparent, '~' a softened edge. */
function art(bitmap: Bitmap): string[] {
  const rows: string[] = []
  for (let y = 0; y < bitmap.height; y++) {
    let row = ''
    for (let x = 0; x < bitmap.width; x++) {
      const pixel = pixelAt(bitmap, x, y)
      if (pixel.every((value, index) => value === WHITE[index])) row += '#'
      else if (pixel.every((value, index) => value === RED[index])) row += 'r'
      else if (pixel[3] === 0) row += '.'
      else row += '~'
    }
    rows.push(row)
  }
  return rows
}

describe('badgeText', () => {
  it('says the count while it fits, large enough to read', () => {
    expect(badgeText(3, 16)).toEqual({ text: '3', scale: 2 })
    expect(badgeText(42, 16)).toEqual({ text: '42', scale: 2 })
    expect(badgeText(42, 10)).toEqual({ text: '42', scale: 1 })
  })

  it('says 9+ where a bigger count would not fit', () => {
    expect(badgeText(100, 16)).toEqual({ text: '9+', scale: 2 })
    expect(badgeText(2500, 10)).toEqual({ text: '9+', scale: 1 })
  })

  it('says 99+ beyond 99 where that fits at the size it would draw 9+', () => {
    expect(badgeText(100, 14)).toEqual({ text: '99+', scale: 1 })
    expect(badgeText(99, 14)).toEqual({ text: '99', scale: 1 })
  })

  it('says nothing for no unread messages', () => {
    expect(badgeText(0, 16)).toBeNull()
  })

  it('says nothing where not even 9+ fits', () => {
    expect(badgeText(5, 7)).toEqual({ text: '5', scale: 1 })
    expect(badgeText(10, 7)).toBeNull()
  })
})

describe('badgeBitmap', () => {
  it('draws the count in white on a red square with rounded corners', () => {
    // "7" is 3 × 5 font pixels drawn 2 × 2, in the middle: columns 5 to 10, rows 3 to 12.
    expect(art(badgeBitmap(7, 16))).toEqual([
      '..~~~rrrrrr~~~..',
      '.~~rrrrrrrrrr~~.',
      '~~rrrrrrrrrrrr~~',
      '~rrrr######rrrr~',
      '~rrrr######rrrr~',
      'rrrrrrrrr##rrrrr',
      'rrrrrrrrr##rrrrr',
      'rrrrrrrrr##rrrrr',
      'rrrrrrrrr##rrrrr',
      'rrrrrrr##rrrrrrr',
      'rrrrrrr##rrrrrrr',
      '~rrrrrr##rrrrrr~',
      '~rrrrrr##rrrrrr~',
      '~~rrrrrrrrrrrr~~',
      '.~~rrrrrrrrrr~~.',
      '..~~~rrrrrr~~~..'
    ])
  })

  it('fits two digits side by side', () => {
    expect(art(badgeBitmap(42, 10))).toEqual([
      '.~~rrrr~~.',
      '~rrrrrrrr~',
      '~#r#r###r~',
      'r#r#rrr#rr',
      'r###r###rr',
      'rrr#r#rrrr',
      'rrr#r###rr',
      '~rrrrrrrr~',
      '~rrrrrrrr~',
      '.~~rrrr~~.'
    ])
  })

  it('says 99+ in the small font where that is what fits', () => {
    expect(art(badgeBitmap(100, 14))).toEqual([
      '..~~rrrrrr~~..',
      '.~rrrrrrrrrr~.',
      '~rrrrrrrrrrrr~',
      '~rrrrrrrrrrrr~',
      'r###r###rrrrrr',
      'r#r#r#r#rr#rrr',
      'r###r###r###rr',
      'rrr#rrr#rr#rrr',
      'r###r###rrrrrr',
      'rrrrrrrrrrrrrr',
      '~rrrrrrrrrrrr~',
      '~rrrrrrrrrrrr~',
      '.~rrrrrrrrrr~.',
      '..~~rrrrrr~~..'
    ])
  })

  it('is transparent when nothing is unread', () => {
    expect(badgeBitmap(0, 16).rgba.every((value) => value === 0)).toBe(true)
  })
})
