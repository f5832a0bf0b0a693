// Browser mode's badge: the unread count in the tab's title and drawn onto its icon, where a
// tab's only way to say "something new" is what the tab strip shows. Electron sets the title too.

export function pageTitle(unread: number): string {
  return unread > 0 ? `(${unread}) Parley` : 'Parley'
}

export function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread)
}

const SIZE = 64

/** Draws the count over the page's own icon and makes that the icon; 0 puts the plain one back. */
export class FaviconBadge {
  readonly #link: HTMLLinkElement | null
  readonly #plainHref: string | null
  #icon: Promise<HTMLImageElement | null> | null = null
  /** The count last asked for: a slower drawing of an older count must not win. */
  #wanted = 0

  constructor(document: Document = globalThis.document) {
    this.#link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    this.#plainHref = this.#link?.getAttribute('href') ?? null
  }

  async show(unread: number): Promise<void> {
    this.#wanted = unread
    const link = this.#link
    if (link === null || this.#plainHref === null) return
    if (unread === 0) {
      link.setAttribute('href', this.#plainHref)
      return
    }
    const drawn = await this.#draw(unread)
    // Without a drawing (no canvas here) the title still carries the count.
    if (drawn !== null && this.#wanted === unread) link.setAttribute('href', drawn)
  }

  async #draw(unread: number): Promise<string | null> {
    const icon = await this.#plainIcon()
    if (icon === null) return null
    const canvas = icon.ownerDocument.createElement('canvas')
    canvas.width = SIZE
    canvas.height = SIZE
    const context = canvas.getContext('2d')
    if (context === null) return null
    context.drawImage(icon, 0, 0, SIZE, SIZE)

    const text = badgeText(unread)
    const radius = text.length > 2 ? 26 : 22
    const x = SIZE - radius
    const y = radius
    context.beginPath()
    context.arc(x, y, radius, 0, 2 * Math.PI)
    context.fillStyle = '#e5484d'
    context.fill()
    context.fillStyle = '#ffffff'
    context.font = `bold ${text.length > 2 ? 22 : 30}px system-ui, sans-serif`
    context.textAlign = 'center'
    context.textBaseline = 'middle'
    context.fillText(text, x, y + 1)
    return canvas.toDataURL('image/png')
  }

  /** The plain icon, loaded once: it is the page's own data URL, so loading cannot taint the canvas. */
  #plainIcon(): Promise<HTMLImageElement | null> {
    this.#icon ??= (async () => {
      if (this.#link === null || this.#plainHref === null) return null
      const image = this.#link.ownerDocument.createElement('img')
      image.src = this.#plainHref
      try {
        await image.decode()
        return image
      } catch {
        return null
      }
    })()
    return this.#icon
  }
}
