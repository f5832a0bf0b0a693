// A picture's box in the history, known before the picture loads wherever possible, so the rows
// never move when it comes. The image service names a picture by its size (`…/1024x768.jpeg.<hash>`);
// the service gives no size otherwise, so a picture named without one is measured once it has
// loaded and its size kept for the rest of the session, so later drawings of it reserve it.

export interface PictureSize {
  width: number
  height: number
}

// The size in a picture's name, also when the name is the `url` parameter of an address this
// device keeps the picture under (hosting/kept-pictures.ts).
const SIZED_NAME = /\/(\d{1,5})x(\d{1,5})\.(?:png|jpe?g|gif|webp|bmp)\.[0-9a-f]{8,}/i

/** The size the picture's name gives, when it gives one. */
export function sizeInName(url: string): PictureSize | null {
  let address = url
  try {
    address = decodeURIComponent(url)
  } catch {
    // Not encoded as a component: read as it is.
  }
  const match = SIZED_NAME.exec(address)
  const width = Number(match?.[1])
  const height = Number(match?.[2])
  return width > 0 && height > 0 ? { width, height } : null
}

/** The smallest side a shrunk picture's box is drawn at: a sliver still shows as something to click. */
const SMALLEST = 24

/**
 * The box a picture of this size is drawn in: its own ratio, shrunk to fit within `largest`,
 * never enlarged, so a small picture is drawn at its size rather than padded into a large box.
 */
export function fittedBox(size: PictureSize, largest: PictureSize): PictureSize {
  const scale = Math.min(1, largest.width / size.width, largest.height / size.height)
  return {
    width: Math.max(Math.min(SMALLEST, size.width), Math.round(size.width * scale)),
    height: Math.max(Math.min(SMALLEST, size.height), Math.round(size.height * scale))
  }
}

/** Sizes measured this session, by address; bounded, the oldest forgotten first. */
const measured = new Map<string, PictureSize>()
const MEASURED_AT_MOST = 2_000

/**
 * The picture an address is of: a picture this device keeps goes to the page at an address of its
 * own once kept, which names the service's address as its `url` parameter.
 */
function pictureOf(url: string): string {
  try {
    return new URL(url, 'http://page.invalid').searchParams.get('url') ?? url
  } catch {
    return url
  }
}

/** What is known of a picture's size before it loads: its name's, or a measure taken earlier. */
export function knownSize(url: string): PictureSize | null {
  return sizeInName(url) ?? measured.get(pictureOf(url)) ?? null
}

/** A picture's size, measured as it loaded. */
export function rememberSize(url: string, size: PictureSize): void {
  if (size.width <= 0 || size.height <= 0) return
  const picture = pictureOf(url)
  measured.delete(picture)
  measured.set(picture, size)
  if (measured.size > MEASURED_AT_MOST) measured.delete(measured.keys().next().value ?? '')
}
