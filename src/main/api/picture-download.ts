// A message's picture, fetched by main to keep on this device (core/picture-keeper.ts) while its
// link still works. Only from an address the page itself may load pictures from (core checks that),
// and as the page would: no token, no cookie, no redirect followed to a host nobody chose. What
// comes back is served to the page again from the app's own origin, so only the picture types main
// keeps pass (shared/image-files.ts), each checked by its first bytes.
import { isKeptPicture, isKeptPictureType } from '@shared/image-files'

export interface DownloadedPicture {
  contentType: string
  bytes: Uint8Array
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

export async function downloadPicture(url: string, fetcher: typeof fetch = globalThis.fetch): Promise<DownloadedPicture> {
  const response = await fetcher(url, { redirect: 'error', credentials: 'omit', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) })
  if (!response.ok) {
    await response.body?.cancel()
    throw new NotAPictureError(url, `answered ${response.status}`)
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (!isKeptPictureType(contentType)) {
    await response.body?.cancel()
    throw new NotAPictureError(url, `its type is ${JSON.stringify(contentType)}`)
  }
  const bytes = await readAtMost(response, MAX_DOWNLOAD_BYTES, url)
  if (!isKeptPicture(contentType, bytes)) throw new NotAPictureError(url, `it does not begin as ${contentType} does`)
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
