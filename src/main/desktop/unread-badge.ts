// The unread count where the system shows one beside the app: the Dock (macOS) and Unity's
// launcher (Linux) through app.setBadgeCount, and an overlay on the window's taskbar button
// (Windows). The tray icon carries the count as well, on Linux and Windows (tray-icon.ts).
import { app, nativeImage, type BrowserWindow, type NativeImage } from 'electron'
import { badgeBitmap } from './badge-bitmap'
import { encodePng } from './png'

/** The window whose taskbar button shows the overlay. */
export type OverlayWindow = Pick<BrowserWindow, 'setOverlayIcon' | 'isDestroyed'>

export class UnreadBadge {
  readonly #platform: NodeJS.Platform
  #count = 0
  #window: OverlayWindow | null = null

  constructor(platform: NodeJS.Platform = process.platform) {
    this.#platform = platform
  }

  show(unreadCount: number): void {
    if (unreadCount === this.#count) return
    this.#count = unreadCount
    this.#render()
  }

  /** A window opened: on Windows the overlay belongs to its taskbar button. */
  attach(window: OverlayWindow): void {
    this.#window = window
    this.#render()
  }

  #render(): void {
    // https://www.electronjs.org/docs/latest/api/app#appsetbadgecountcount-linux-macos
    if (this.#platform === 'darwin' || this.#platform === 'linux') app.setBadgeCount(this.#count)
    const window = this.#window
    if (this.#platform === 'win32' && window !== null && !window.isDestroyed()) {
      if (this.#count > 0) window.setOverlayIcon(overlayImage(this.#count), `${this.#count} unread`)
      else window.setOverlayIcon(null, '')
    }
  }
}

/** The taskbar overlay: 16 × 16 pixels, and 32 for high-density screens. */
function overlayImage(unreadCount: number): NativeImage {
  const image = nativeImage.createEmpty()
  for (const scaleFactor of [1, 2]) image.addRepresentation({ scaleFactor, buffer: encodePng(badgeBitmap(unreadCount, 16 * scaleFactor)) })
  return image
}
