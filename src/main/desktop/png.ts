// PNG in and out, for the tray icon and its badge. A PNG means the same pixels on every platform,
// where nativeImage's raw bitmaps are in each platform's own byte order ("The specific format is
// platform-dependent": https://www.electronjs.org/docs/latest/api/native-image). Only what the app
// needs: 8-bit RGBA or RGB, not interlaced (https://www.w3.org/TR/png-3/).
import { crc32, deflateSync, inflateSync } from 'node:zlib'
import type { Bitmap } from './bitmap'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const COLOUR_TYPE_RGB = 2
const COLOUR_TYPE_RGBA = 6

export function decodePng(png: Uint8Array): Bitmap {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength)
  if (bytes.length < SIGNATURE.length || !bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
    throw new Error('not a PNG image')
  }
  let header: { width: number; height: number; channels: number } | null = null
  const data: Buffer[] = []
  let offset = SIGNATURE.length
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const body = bytes.subarray(offset + 8, offset + 8 + length)
    if (body.length !== length) throw new Error(`PNG chunk ${type} is cut short`)
    offset += 12 + length
    if (type === 'IHDR') header = readHeader(body)
    else if (type === 'IDAT') data.push(body)
    else if (type === 'IEND') break
  }
  if (header === null) throw new Error('PNG image has no header')
  return { width: header.width, height: header.height, rgba: toRgba(unfilter(inflateSync(Buffer.concat(data)), header), header.channels) }
}

export function encodePng({ width, height, rgba }: Bitmap): Buffer {
  const stride = width * 4
  // Each row starts with its filter type: 0, none.
  const rows = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1)
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, COLOUR_TYPE_RGBA, 0, 0, 0], 8)
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

function chunk(type: string, body: Buffer): Buffer {
  const typeAndBody = Buffer.concat([Buffer.from(type, 'latin1'), body])
  const framed = Buffer.alloc(typeAndBody.length + 8)
  framed.writeUInt32BE(body.length, 0)
  typeAndBody.copy(framed, 4)
  framed.writeUInt32BE(crc32(typeAndBody), framed.length - 4)
  return framed
}

function readHeader(body: Buffer): { width: number; height: number; channels: number } {
  const width = body.readUInt32BE(0)
  const height = body.readUInt32BE(4)
  const [bitDepth, colourType, , , interlace] = body.subarray(8, 13)
  if (bitDepth !== 8 || (colourType !== COLOUR_TYPE_RGB && colourType !== COLOUR_TYPE_RGBA) || interlace !== 0) {
    throw new Error(`unsupported PNG image (bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}): use 8-bit RGB(A), not interlaced`)
  }
  return { width, height, channels: colourType === COLOUR_TYPE_RGBA ? 4 : 3 }
}

/** Undoes each row's filter, giving the raw samples, rows top to bottom. */
function unfilter(filtered: Buffer, { width, height, channels }: { width: number; height: number; channels: number }): Uint8Array {
  const stride = width * channels
  if (filtered.length < (stride + 1) * height) throw new Error('PNG image data is cut short')
  const raw = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)]
    const source = y * (stride + 1) + 1
    const row = y * stride
    for (let i = 0; i < stride; i++) {
      const value = filtered[source + i] ?? 0
      const left = i >= channels ? (raw[row + i - channels] ?? 0) : 0
      const up = y > 0 ? (raw[row - stride + i] ?? 0) : 0
      const upLeft = y > 0 && i >= channels ? (raw[row - stride + i - channels] ?? 0) : 0
      raw[row + i] = (value + predictor(filter, left, up, upLeft)) & 0xff
    }
  }
  return raw
}

function predictor(filter: number | undefined, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0
    case 1:
      return left
    case 2:
      return up
    case 3:
      return (left + up) >> 1
    case 4:
      return paeth(left, up, upLeft)
    default:
      throw new Error(`PNG row has an unknown filter type ${filter}`)
  }
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft
  const toLeft = Math.abs(estimate - left)
  const toUp = Math.abs(estimate - up)
  const toUpLeft = Math.abs(estimate - upLeft)
  if (toLeft <= toUp && toLeft <= toUpLeft) return left
  return toUp <= toUpLeft ? up : upLeft
}

function toRgba(samples: Uint8Array, channels: number): Uint8Array {
  if (channels === 4) return samples
  const rgba = new Uint8Array((samples.length / 3) * 4)
  for (let pixel = 0; pixel < samples.length / 3; pixel++) {
    rgba.set(samples.subarray(pixel * 3, pixel * 3 + 3), pixel * 4)
    rgba[pixel * 4 + 3] = 255
  }
  return rgba
}
