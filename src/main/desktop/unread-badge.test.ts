import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { pixelAt } from './bitmap'
import { decodePng } from './png'
import { UnreadBadge, type OverlayWindow } from './unread-badge'

interface Representation {
  scaleFactor: number
  buffer: Buffer
}
type FakeImage = { representations: Representation[] }

const electron = vi.hoisted(() => ({ setBadgeCount: vi.fn((_count: number) => true) }))

vi.mock('electron', () => ({
  app: { setBadgeCount: electron.setBadgeCount },
  nativeImage: {
    createEmpty: () => {
      const image = {
        representations: [] as Representation[],
        addRepresentation(representation: Representation) {
          image.representations.push(representation)
        }
      }
      return image
    }
  }
}))

class FakeWindow extends EventEmitter {
  overlays: [FakeImage | null, string][] = []
  destroyed = false
  setOverlayIcon(image: FakeImage | null, description: string): void {
    this.overlays.push([image, description])
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
}

function asOverlayWindow(window: FakeWindow): OverlayWindow {
  return window as unknown as OverlayWindow
}

beforeEach(() => {
  electron.setBadgeCount.mockClear()
})

describe('UnreadBadge', () => {
  it('puts the count on the Dock (macOS) and clears it at zero', () => {
    const badge = new UnreadBadge('darwin')
    badge.show(4)
    badge.show(0)
    expect(electron.setBadgeCount.mock.calls).toEqual([[4], [0]])
  })

  it("puts the count on Unity's launcher (Linux)", () => {
    new UnreadBadge('linux').show(2)
    expect(electron.setBadgeCount).toHaveBeenCalledWith(2)
  })

  it('does not ask again for a count it already shows', () => {
    const badge = new UnreadBadge('darwin')
    badge.show(4)
    badge.show(4)
    expect(electron.setBadgeCount).toHaveBeenCalledTimes(1)
  })

  it("overlays the badge on the window's taskbar button (Windows), and removes it at zero", () => {
    const badge = new UnreadBadge('win32')
    const window = new FakeWindow()
    badge.attach(asOverlayWindow(window))
    badge.show(3)
    badge.show(0)
    expect(electron.setBadgeCount).not.toHaveBeenCalled()
    expect(window.overlays.map(([image, description]) => [image === null, description])).toEqual([
      [true, ''],
      [false, '3 unread'],
      [true, '']
    ])
    const image = window.overlays[1]?.[0]
    expect(image?.representations.map(({ scaleFactor }) => scaleFactor)).toEqual([1, 2])
    const overlay = decodePng(image?.representations[0]?.buffer ?? Buffer.alloc(0))
    expect([overlay.width, overlay.height]).toEqual([16, 16])
    // The middle of a red badge, with a white "3" across its top stroke at rows 3 and 4.
    expect(pixelAt(overlay, 8, 3)).toEqual([0xff, 0xff, 0xff, 0xff])
    expect(pixelAt(overlay, 2, 8)).toEqual([0xd9, 0x30, 0x25, 0xff])
  })

  it('shows the count on a window that opens after it changed', () => {
    const badge = new UnreadBadge('win32')
    badge.show(5)
    const window = new FakeWindow()
    badge.attach(asOverlayWindow(window))
    expect(window.overlays.map(([, description]) => description)).toEqual(['5 unread'])
  })

  it('leaves a destroyed window alone', () => {
    const badge = new UnreadBadge('win32')
    const window = new FakeWindow()
    badge.attach(asOverlayWindow(window))
    window.destroyed = true
    badge.show(5)
    expect(window.overlays).toHaveLength(1)
  })
})
