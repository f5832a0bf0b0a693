import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { blankBitmap, pixelAt, scaleDown, setPixel } from './bitmap'
import { decodePng } from './png'
import { TrayIcons, withBadge } from './tray-icon'

interface Representation {
  scaleFactor: number
  buffer: Buffer
}

const electron = vi.hoisted(() => ({ images: [] as { representations: Representation[] }[] }))

vi.mock('electron', () => ({
  nativeImage: {
    createEmpty: () => {
      const image = {
        representations: [] as Representation[],
        addRepresentation(representation: Representation) {
          image.representations.push(representation)
        }
      }
      electron.images.push(image)
      return image
    }
  }
}))

const APP_ICON = decodePng(readFileSync(resolve(import.meta.dirname, '../../../build/icon.png')))
const RED = [0xd9, 0x30, 0x25, 0xff]
const WHITE = [0xff, 0xff, 0xff, 0xff]

beforeEach(() => {
  electron.images.length = 0
})

describe('withBadge', () => {
  it('paints the badge over the top right corner and leaves the rest of the icon', () => {
    const icon = blankBitmap(16, 16)
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) setPixel(icon, x, y, [0, 0, 255, 255])
    const badged = withBadge(icon, 3)
    // A 10-pixel badge from column 6, row 0: red around a white "3" at columns 9 to 11, rows 2 to 6.
    expect(pixelAt(badged, 7, 4)).toEqual(RED)
    expect(pixelAt(badged, 10, 2)).toEqual(WHITE)
    expect(pixelAt(badged, 10, 3)).toEqual(RED)
    expect(pixelAt(badged, 5, 4)).toEqual([0, 0, 255, 255])
    expect(pixelAt(badged, 12, 12)).toEqual([0, 0, 255, 255])
  })

  it('leaves the icon as it is with nothing unread', () => {
    const icon = blankBitmap(16, 16)
    expect(withBadge(icon, 0)).toBe(icon)
  })
})

describe('TrayIcons', () => {
  it('draws the app icon at 16 and 32 pixels, for normal and high-density screens', () => {
    new TrayIcons(APP_ICON, true).forUnread(0)
    const [image] = electron.images
    expect(image?.representations.map(({ scaleFactor }) => scaleFactor)).toEqual([1, 2])
    const [normal, dense] = (image?.representations ?? []).map(({ buffer }) => decodePng(buffer))
    expect([normal?.width, dense?.width]).toEqual([16, 32])
    expect([...(normal?.rgba ?? [])]).toEqual([...scaleDown(APP_ICON, 16, 16).rgba])
  })

  it('draws the unread count on the icon where the system shows none (Linux, Windows)', () => {
    new TrayIcons(APP_ICON, true).forUnread(3)
    const normal = decodePng(electron.images[0]?.representations[0]?.buffer ?? Buffer.alloc(0))
    expect([...normal.rgba]).toEqual([...withBadge(scaleDown(APP_ICON, 16, 16), 3).rgba])
    expect(pixelAt(normal, 10, 2)).toEqual(WHITE)
  })

  it('keeps the icon plain where the Dock shows the count (macOS)', () => {
    new TrayIcons(APP_ICON, false).forUnread(3)
    const normal = decodePng(electron.images[0]?.representations[0]?.buffer ?? Buffer.alloc(0))
    expect([...normal.rgba]).toEqual([...scaleDown(APP_ICON, 16, 16).rgba])
  })
})
