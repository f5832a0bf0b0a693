import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { blankBitmap, pixelAt, setPixel } from './bitmap'
import { decodePng, encodePng } from './png'

const APP_ICON = resolve(import.meta.dirname, '../../../build/icon.png')
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A PNG with the given header fields and filtered rows, as another encoder might write it. */
function handMadePng(width: number, height: number, colourType: number, rows: number[][], bitDepth = 8): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([bitDepth, colourType, 0, 0, 0], 8)
  return Buffer.concat([SIGNATURE, frame('IHDR', header), frame('IDAT', deflateSync(Buffer.from(rows.flat()))), frame('IEND', Buffer.alloc(0))])
}

function frame(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(body.length)
  // The decoder does not check CRCs: a zero one will do here.
  return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)])
}

describe('PNG', () => {
  it('reads back the pixels it wrote', () => {
    const bitmap = blankBitmap(3, 2)
    setPixel(bitmap, 0, 0, [255, 0, 0, 255])
    setPixel(bitmap, 2, 1, [10, 20, 30, 40])
    const decoded = decodePng(encodePng(bitmap))
    expect(decoded.width).toBe(3)
    expect(decoded.height).toBe(2)
    expect([...decoded.rgba]).toEqual([...bitmap.rgba])
  })

  it('writes chunks whose checksums a strict reader accepts', () => {
    const png = encodePng(blankBitmap(2, 2))
    // The CRC-32 of "IHDR" and the header of a 2×2 8-bit RGBA image, as every PNG of that shape carries it.
    expect(png.readUInt32BE(8 + 8 + 13)).toBe(0x72b60d24)
  })

  it('undoes every row filter (none, sub, up, average, paeth)', () => {
    // One RGB pixel wide is too narrow to tell the filters apart: two pixels, five rows.
    const rows = [
      [0, 10, 20, 30, 40, 50, 60],
      [1, 10, 20, 30, 5, 5, 5],
      [2, 1, 1, 1, 1, 1, 1],
      [3, 10, 10, 10, 10, 10, 10],
      [4, 1, 2, 3, 4, 5, 6]
    ]
    const bitmap = decodePng(handMadePng(2, 5, 2, rows))
    expect(pixelAt(bitmap, 0, 0)).toEqual([10, 20, 30, 255])
    expect(pixelAt(bitmap, 1, 0)).toEqual([40, 50, 60, 255])
    // Sub: each byte adds the one a pixel to its left.
    expect(pixelAt(bitmap, 1, 1)).toEqual([15, 25, 35, 255])
    // Up: each byte adds the one above.
    expect(pixelAt(bitmap, 0, 2)).toEqual([11, 21, 31, 255])
    expect(pixelAt(bitmap, 1, 2)).toEqual([16, 26, 36, 255])
    // Average: of left (0 at the row's start) and above, rounded down.
    expect(pixelAt(bitmap, 0, 3)).toEqual([15, 20, 25, 255])
    expect(pixelAt(bitmap, 1, 3)).toEqual([10 + ((15 + 16) >> 1), 10 + ((20 + 26) >> 1), 10 + ((25 + 36) >> 1), 255])
    // Paeth: at the row's start left and upper-left are 0, so it predicts from above.
    expect(pixelAt(bitmap, 0, 4)).toEqual([16, 22, 28, 255])
  })

  it('reads the app icon it draws the tray from', () => {
    const icon = decodePng(readFileSync(APP_ICON))
    expect(icon.width).toBe(512)
    expect(icon.height).toBe(512)
    // The middle of the icon is drawn, not transparent.
    expect(pixelAt(icon, 256, 256)[3]).toBeGreaterThan(0)
  })

  it('refuses what is not a PNG', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow('not a PNG image')
  })

  it('refuses PNG formats it does not read, saying which', () => {
    expect(() => decodePng(handMadePng(1, 1, 6, [[0, 0, 0, 0, 0, 0, 0, 0, 0]], 16))).toThrow('bit depth 16')
    expect(() => decodePng(handMadePng(1, 1, 3, [[0, 0]]))).toThrow('colour type 3')
  })

  it('refuses a row with an unknown filter', () => {
    expect(() => decodePng(handMadePng(1, 1, 6, [[7, 0, 0, 0, 0]]))).toThrow('unknown filter type 7')
  })

  it('refuses image data that is cut short', () => {
    expect(() => decodePng(handMadePng(2, 2, 6, [[0, 1, 2, 3, 4]]))).toThrow('cut short')
  })
})
