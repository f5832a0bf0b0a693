import { describe, expect, it } from 'vitest'
import { blankBitmap, drawOver, pixelAt, scaleDown, setPixel, type Bitmap, type Rgba } from './bitmap'

function filled(width: number, height: number, colour: Rgba): Bitmap {
  const bitmap = blankBitmap(width, height)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) setPixel(bitmap, x, y, colour)
  return bitmap
}

describe('scaleDown', () => {
  it('averages the area each pixel covers', () => {
    const source = blankBitmap(4, 2)
    setPixel(source, 0, 0, [200, 0, 0, 255])
    setPixel(source, 1, 0, [0, 0, 200, 255])
    setPixel(source, 0, 1, [200, 0, 0, 255])
    setPixel(source, 1, 1, [0, 0, 200, 255])
    const scaled = scaleDown(source, 2, 1)
    expect(pixelAt(scaled, 0, 0)).toEqual([100, 0, 100, 255])
    // The right half was all transparent.
    expect(pixelAt(scaled, 1, 0)).toEqual([0, 0, 0, 0])
  })

  it('lets transparent pixels thin the alpha without darkening the colour', () => {
    const source = blankBitmap(2, 1)
    setPixel(source, 0, 0, [255, 255, 255, 255])
    expect(pixelAt(scaleDown(source, 1, 1), 0, 0)).toEqual([255, 255, 255, 128])
  })

  it('shares a pixel between the two it straddles when the sizes do not divide', () => {
    const source = filled(3, 1, [90, 90, 90, 255])
    setPixel(source, 1, 0, [0, 0, 0, 255])
    const scaled = scaleDown(source, 2, 1)
    // Each half covers one grey pixel and half the black one.
    expect(pixelAt(scaled, 0, 0)).toEqual([60, 60, 60, 255])
    expect(pixelAt(scaled, 1, 0)).toEqual([60, 60, 60, 255])
  })
})

describe('drawOver', () => {
  it('paints opaque pixels over the base, and leaves it alone where the overlay is clear', () => {
    const base = filled(3, 3, [0, 0, 255, 255])
    const overlay = blankBitmap(2, 2)
    setPixel(overlay, 1, 1, [255, 0, 0, 255])
    const result = drawOver(base, overlay, 1, 1)
    expect(pixelAt(result, 2, 2)).toEqual([255, 0, 0, 255])
    expect(pixelAt(result, 1, 1)).toEqual([0, 0, 255, 255])
    // The base itself is not changed.
    expect(pixelAt(base, 2, 2)).toEqual([0, 0, 255, 255])
  })

  it('blends a half-transparent overlay, and shows it alone over transparency', () => {
    const base = blankBitmap(2, 1)
    setPixel(base, 0, 0, [0, 0, 0, 255])
    const overlay = filled(2, 1, [255, 255, 255, 128])
    const result = drawOver(base, overlay, 0, 0)
    expect(pixelAt(result, 0, 0)).toEqual([128, 128, 128, 255])
    expect(pixelAt(result, 1, 0)).toEqual([255, 255, 255, 128])
  })

  it('clips what falls outside the base', () => {
    const result = drawOver(blankBitmap(2, 2), filled(2, 2, [255, 0, 0, 255]), 1, -1)
    expect(pixelAt(result, 1, 0)).toEqual([255, 0, 0, 255])
    expect(pixelAt(result, 0, 0)).toEqual([0, 0, 0, 0])
    expect(pixelAt(result, 1, 1)).toEqual([0, 0, 0, 0])
  })
})
