// A message's picture, fetched by main to keep on this device (storage/local-store/picture-cache.ts)
// while its link still works. Only from an address the page itself may load pictures from (core
// checks that), and as the page would: no token, no cookie, no redirect followed to a host nobody
// chose. What comes back is served to the page again from the app's own origin, so only picture
// types a browser draws as pictures pass, each checked by its first bytes: never SVG (a document
// that can carry script), never whatever a server claims.
import type { KeptPicture } from '../core/ports'

/** What the page can show as a picture, by the first bytes of each. */
const SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  'image/jpeg': (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]),
  'image/png': (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]),
  'image/gif': (bytes) => startsWith(bytes, [0x47, 0x49, 0x46, 0x38]),
  // RIFF, four bytes of length, WEBP.
  'image/webp': (bytes) => startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes.subarray(8), [0x57, 0x45, 0x42, 0x50])
}

/** Larger than any picture the image service takes (10 MiB), smaller than anything that would hurt. */
export const MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024
const DOWNLOAD_TIMEOUT_MS = 60_000

export class NotAPictureError extends Error {
  constructor(url: string, why: string) {
    super(`${url} is not a picture to keep: ${why}`)
    this.name = 'NotAPictureError'
  }
}

/** Whether `contentType` is a picture type this app keeps and serves. */
export function isKeptPictureType(contentType: string): boolean {
  return Object.hasOwn(SIGNATURES, contentType)
}

export async function downloadPicture(url: string, fetcher: typeof fetch = globalThis.fetch): Promise<KeptPicture> {
  const response = await fetcher(url, { redirect: 'error', credentials: 'omit', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) })
  if (!response.ok) {
    await response.body?.cancel()
    throw new NotAPictureError(url, `answered ${response.status}`)
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const signature = SIGNATURES[contentType]
  if (signature === undefined) {
    await response.body?.cancel()
    throw new NotAPictureError(url, `its type is ${JSON.stringify(contentType)}`)
  }
  const bytes = await readAtMost(response, MAX_DOWNLOAD_BYTES, url)
  if (!signature(bytes)) throw new NotAPictureError(url, `it does not begin as ${contentType} does`)
  return { contentType, bytes }
}

async function readAtMost(response: Response, limit: number, url: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '0')
  if (declared > limit) {
    await response.body?.cancel()
    throw new NotAPictureError(url, `it is ${declared} bytes`)
  }
  if (response.body === null) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of response.body) {
    total += chunk.length
    if (total > limit) throw new NotAPictureError(url, `it is more than ${limit} bytes`)
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte)
}
