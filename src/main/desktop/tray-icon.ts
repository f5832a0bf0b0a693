// The tray icon: the app icon at tray size, with the unread count drawn on it where the system
// shows no count of its own (Linux, Windows; macOS has the Dock's badge).
import { nativeImage, type NativeImage } from 'electron'
import { badgeBitmap } from './badge-bitmap'
import { drawOver, scaleDown, type Bitmap } from './bitmap'
import { encodePng } from './png'

/** The badge covers this share of the icon's side, in its top right corner. */
const BADGE_SHARE = 0.625

/** Each size drawn, for the display scale it suits: a 16-point icon, sharp on high-density screens too. */
const REPRESENTATIONS = [
  { scaleFactor: 1, size: 16 },
  { scaleFactor: 2, size: 32 }
] as const

/** `icon` with the badge for `unreadCount` over its top right corner. */
export function withBadge(icon: Bitmap, unreadCount: number): Bitmap {
  if (unreadCount <= 0) return icon
  const badgeSize = Math.round(icon.width * BADGE_SHARE)
  return drawOver(icon, badgeBitmap(unreadCount, badgeSize), icon.width - badgeSize, 0)
}

/** Makes the tray's image for an unread count, from the app icon scaled down once. */
export class TrayIcons {
  readonly #sizes: { scaleFactor: number; icon: Bitmap }[]
  readonly #drawsCount: boolean

  /** `drawsCount`: whether the count goes on the icon, or (macOS) the icon stays plain. */
  constructor(appIcon: Bitmap, drawsCount: boolean) {
    this.#sizes = REPRESENTATIONS.map(({ scaleFactor, size }) => ({ scaleFactor, icon: scaleDown(appIcon, size, size) }))
    this.#drawsCount = drawsCount
  }

  forUnread(unreadCount: number): NativeImage {
    const image = nativeImage.createEmpty()
    for (const { scaleFactor, icon } of this.#sizes) {
      image.addRepresentation({ scaleFactor, buffer: encodePng(this.#drawsCount ? withBadge(icon, unreadCount) : icon) })
    }
    return image
  }
}
