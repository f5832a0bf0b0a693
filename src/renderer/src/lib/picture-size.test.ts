import { describe, expect, it } from 'vitest'
import { fittedBox, knownSize, rememberSize, sizeInName } from './picture-size'

const LARGEST = { width: 384, height: 240 }

describe('sizeInName', () => {
  it('reads the size the image service names a picture by', () => {
    expect(sizeInName('https://i.groupme.com/1170x2532.jpeg.efff7f6b52ee4ea1b25f081f3f4a6dd8')).toEqual({ width: 1170, height: 2532 })
    expect(sizeInName('https://i.groupme.com/1000x1000.png.e0868b73aefa3888fcaf1fa5413a7bfe.large')).toEqual({ width: 1000, height: 1000 })
  })

  it('reads it from the address a picture kept on this device goes under', () => {
    const original = 'https://i.groupme.com/640x480.gif.742b941f7eea46998438cee6838268ec'
    expect(sizeInName(`/kept-pictures/key?url=${encodeURIComponent(original)}`)).toEqual({ width: 640, height: 480 })
  })

  it('finds none in a name without one, or with a size of nothing', () => {
    expect(sizeInName('http://127.0.0.1:8080/image/i/0123456789abcdef0123456789abcdef')).toBeNull()
    expect(sizeInName('https://i.groupme.com/0x480.png.742b941f7eea46998438cee6838268ec')).toBeNull()
    expect(sizeInName('https://example.com/%E0%A4%A')).toBeNull()
  })
})

describe('fittedBox', () => {
  it('keeps the ratio while shrinking a large picture to fit', () => {
    expect(fittedBox({ width: 1600, height: 400 }, LARGEST)).toEqual({ width: 384, height: 96 })
    expect(fittedBox({ width: 1170, height: 2532 }, LARGEST)).toEqual({ width: 111, height: 240 })
  })

  it('never enlarges a small picture', () => {
    expect(fittedBox({ width: 48, height: 32 }, LARGEST)).toEqual({ width: 48, height: 32 })
    expect(fittedBox({ width: 40, height: 20 }, LARGEST)).toEqual({ width: 40, height: 20 })
    expect(fittedBox({ width: 3, height: 2 }, LARGEST)).toEqual({ width: 3, height: 2 })
  })

  it('keeps a sliver of a picture large enough to click', () => {
    expect(fittedBox({ width: 3000, height: 30 }, LARGEST)).toEqual({ width: 384, height: 24 })
  })
})

describe('knownSize', () => {
  it('knows a size measured earlier this session', () => {
    const url = 'http://127.0.0.1:8080/image/i/00000000000000000000000000000001'
    expect(knownSize(url)).toBeNull()
    rememberSize(url, { width: 30, height: 20 })
    expect(knownSize(url)).toEqual({ width: 30, height: 20 })
    // Kept on this device since, it comes under an address of its own naming the same picture.
    expect(knownSize(`/kept-pictures/key?url=${encodeURIComponent(url)}`)).toEqual({ width: 30, height: 20 })
  })
})
