// How the page loads a picture this device keeps (core/picture-keeper.ts), for both hosts. Main
// gives the page a local address for each kept picture (core/page-pictures.ts): in Electron one on
// the app's own `parley-picture:` scheme, in browser mode a path on the host's own origin that
// carries a per-launch key, as the bridge does, so no other page in the browser can ask for one.
// Both answer it here, from the cache or (one let go of since) from the picture's own address.
//
// The answer is never stored by the browser (no-store): the cache on disk is encrypted, and a
// copy in the browser's own cache would not be.
import { isKeptPicture } from '@shared/image-files'
import type { KeptPicture } from '../core/ports'

/** Electron's scheme for kept pictures, registered as privileged before the app is ready. */
export const PICTURE_SCHEME = 'parley-picture'

/** What hands the page a kept picture: the picture keeper's `serve`. */
export type ServePicture = (url: string) => Promise<KeptPicture | null>

/** Electron's local address of the picture kept for `url`. */
export function schemePictureAddress(url: string): string {
  return `${PICTURE_SCHEME}://kept/?url=${encodeURIComponent(url)}`
}

/** Browser mode's path of the picture kept for `url`, on the page's own origin; `key` is the launch's. */
export function pathPictureAddress(key: string, url: string): string {
  return `${keptPicturesPath(key)}?url=${encodeURIComponent(url)}`
}

export function keptPicturesPath(key: string): string {
  return `/kept-pictures/${key}`
}

export interface PictureAnswer {
  status: number
  headers: Record<string, string>
  body: Uint8Array | null
}

/** The answer to a request for `address` (one of the local addresses above, as the host received it). */
export async function answerPicture(address: URL, serve: ServePicture): Promise<PictureAnswer> {
  const url = address.searchParams.get('url')
  if (url === null) return notFound()
  let picture: KeptPicture | null
  try {
    picture = await serve(url)
  } catch {
    picture = null
  }
  // Only a picture type the page draws as a picture goes out, under its own type, never sniffed.
  if (picture === null || !isKeptPicture(picture.contentType, picture.bytes)) return notFound()
  return {
    status: 200,
    headers: {
      'Content-Type': picture.contentType,
      'Content-Length': String(picture.bytes.length),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff'
    },
    body: picture.bytes
  }
}

function notFound(): PictureAnswer {
  return { status: 404, headers: { 'Cache-Control': 'no-store' }, body: null }
}
