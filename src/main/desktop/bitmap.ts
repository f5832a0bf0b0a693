// Pixels in memory, for drawing the tray icon and its badge: main has no canvas. Straight (not
// premultiplied) alpha, as PNG stores it.

export interface Bitmap {
  readonly width: number
  readonly height: number
  /** Four bytes a pixel (red, green, blue, alpha), rows top to bottom. */
  readonly rgba: Uint8Array
}

export type Rgba = readonly [red: number, green: number, blue: number, alpha: number]

/** A bitmap of transparent pixels. */
export function blankBitmap(width: number, height: number): Bitmap {
  return { width, height, rgba: new Uint8Array(width * height * 4) }
}

export function pixelAt(bitmap: Bitmap, x: number, y: number): Rgba {
  const at = (y * bitmap.width + x) * 4
  const { rgba } = bitmap
  return [rgba[at] ?? 0, rgba[at + 1] ?? 0, rgba[at + 2] ?? 0, rgba[at + 3] ?? 0]
}

export function setPixel(bitmap: Bitmap, x: number, y: number, [red, green, blue, alpha]: Rgba): void {
  const at = (y * bitmap.width + x) * 4
  bitmap.rgba.set([red, green, blue, alpha], at)
}

/**
 * A smaller copy, each pixel the average of the area it covers (weighted by alpha, so transparent
 * pixels lend no colour to the edge): crisp enough to bring a 512-pixel icon down to a tray's 16.
 */
export function scaleDown(source: Bitmap, width: number, height: number): Bitmap {
  const target = blankBitmap(width, height)
  const stepX = source.width / width
  const stepY = source.height / height
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let red = 0
      let green = 0
      let blue = 0
      let alpha = 0
      let area = 0
      for (const [sourceY, weightY] of covered(y * stepY, (y + 1) * stepY)) {
        for (const [sourceX, weightX] of covered(x * stepX, (x + 1) * stepX)) {
          const [r, g, b, a] = pixelAt(source, sourceX, sourceY)
          const weight = weightX * weightY
          red += r * a * weight
          green += g * a * weight
          blue += b * a * weight
          alpha += a * weight
          area += weight
        }
      }
      if (alpha === 0) continue
      setPixel(target, x, y, [Math.round(red / alpha), Math.round(green / alpha), Math.round(blue / alpha), Math.round(alpha / area)])
    }
  }
  return target
}

/** The source pixels a span from `start` to `end` touches, each with how much of it the span covers. */
function covered(start: number, end: number): [index: number, weight: number][] {
  const pixels: [number, number][] = []
  for (let index = Math.floor(start); index < end; index++) {
    pixels.push([index, Math.min(end, index + 1) - Math.max(start, index)])
  }
  return pixels
}

/** A copy of `base` with `overlay` painted over it, its top left corner at (`left`, `top`). */
export function drawOver(base: Bitmap, overlay: Bitmap, left: number, top: number): Bitmap {
  const result: Bitmap = { width: base.width, height: base.height, rgba: base.rgba.slice() }
  for (let y = 0; y < overlay.height; y++) {
    for (let x = 0; x < overlay.width; x++) {
      const targetX = left + x
      const targetY = top + y
      if (targetX < 0 || targetY < 0 || targetX >= base.width || targetY >= base.height) continue
      const [r, g, b, a] = pixelAt(overlay, x, y)
      if (a === 0) continue
      const [baseR, baseG, baseB, baseA] = pixelAt(base, targetX, targetY)
      // Porter–Duff "source over", in straight alpha.
      const over = a / 255
      const under = (baseA / 255) * (1 - over)
      const alpha = over + under
      const mix = (upper: number, lower: number): number => Math.round((upper * over + lower * under) / alpha)
      setPixel(result, targetX, targetY, [mix(r, baseR), mix(g, baseG), mix(b, baseB), Math.round(alpha * 255)])
    }
  }
  return result
}
