// Which files can be sent as pictures: the image service takes JPEG, PNG and GIF of 1 B to 10 MiB
// (docs/protocol.md §4 I1). The renderer refuses anything else before any upload starts; main
// checks the same rules (and the bytes' signature) again, since it trusts no renderer.

export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number]

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024

export function isImageContentType(type: string): type is ImageContentType {
  return (IMAGE_CONTENT_TYPES as readonly string[]).includes(type)
}

/** The first bytes of each type (as the service checks them, §18.31). */
const SIGNATURES: Record<ImageContentType, readonly number[]> = {
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/gif': [0x47, 0x49, 0x46, 0x38]
}

export function hasImageSignature(type: ImageContentType, bytes: Uint8Array): boolean {
  const signature = SIGNATURES[type]
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte)
}

/** Why this file cannot be sent as a picture, in the user's words, or null when it can. */
export function imageFileProblem(file: { name: string; type: string; size: number }): string | null {
  if (!isImageContentType(file.type)) return `“${file.name}” is not a JPEG, PNG or GIF picture, so it cannot be sent.`
  if (file.size > MAX_IMAGE_BYTES) return `“${file.name}” is larger than 10 MB, so it cannot be sent.`
  if (file.size === 0) return `“${file.name}” is empty.`
  return null
}

/**
 * The pictures main keeps on this device and serves the page from its own origin: the types a
 * browser draws as pictures and nothing else (never SVG, a document that can carry script), each
 * recognised by its first bytes rather than by what a server claims.
 */
const KEPT_SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  ...Object.fromEntries(IMAGE_CONTENT_TYPES.map((type) => [type, (bytes: Uint8Array) => hasImageSignature(type, bytes)])),
  // RIFF, four bytes of length, WEBP.
  'image/webp': (bytes) => startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes.subarray(8), [0x57, 0x45, 0x42, 0x50])
}

/** Whether main keeps and serves pictures of this type. */
export function isKeptPictureType(contentType: string): boolean {
  return Object.hasOwn(KEPT_SIGNATURES, contentType)
}

/** Whether `bytes` begin as a picture of `contentType` does, for a type main keeps. */
export function isKeptPicture(contentType: string, bytes: Uint8Array): boolean {
  return isKeptPictureType(contentType) && KEPT_SIGNATURES[contentType]?.(bytes) === true
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte)
}
