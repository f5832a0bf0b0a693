import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { randomHex } from './secrets.js'

/** The image service (I1, I2): stored pictures, and which URLs are image-service URLs (§2.1). */

export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number]
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024

/** The bytes each declared type must begin with (§18.31), so that no other content is served as an image. */
const SIGNATURES: Record<ImageContentType, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'image/gif': Buffer.from([0x47, 0x49, 0x46, 0x38])
}

export function isImageContentType(type: string): type is ImageContentType {
  return (IMAGE_CONTENT_TYPES as readonly string[]).includes(type)
}

/** Whether `bytes` begin with the signature of `type`. */
export function hasSignatureOf(type: ImageContentType, bytes: Buffer): boolean {
  const signature = SIGNATURES[type]
  return bytes.length >= signature.length && bytes.subarray(0, signature.length).equals(signature)
}

interface ImageRow {
  content_type: string
  bytes: Buffer
}

export class Images {
  readonly #core: Core
  readonly #insert: Statement<[string, number, string, Buffer, number]>
  readonly #get: Statement<[string], ImageRow>
  readonly #exists: Statement<[string], { one: number }>

  constructor(core: Core) {
    this.#core = core
    this.#insert = core.db.prepare('INSERT INTO images (id, user_id, content_type, bytes, created_at) VALUES (?, ?, ?, ?, ?)')
    this.#get = core.db.prepare('SELECT content_type, bytes FROM images WHERE id = ?')
    this.#exists = core.db.prepare('SELECT 1 AS one FROM images WHERE id = ?')
  }

  /** Stores a picture and returns its URL, `ORIGIN/image/i/<32 hex>`. */
  store(userId: number, contentType: ImageContentType, bytes: Buffer): string {
    const id = randomHex(32)
    this.#insert.run(id, userId, contentType, bytes, this.#core.clock.now())
    return this.urlOf(id)
  }

  get(id: string): ImageRow | undefined {
    return this.#get.get(id)
  }

  urlOf(id: string): string {
    return `${this.#core.origin}/image/i/${id}`
  }

  /** A URL this service's image upload returned. */
  isImageServiceUrl(url: string): boolean {
    const prefix = `${this.#core.origin}/image/i/`
    if (!url.startsWith(prefix)) return false
    const id = url.slice(prefix.length)
    return /^[0-9a-f]{32}$/.test(id) && this.#exists.get(id) !== undefined
  }
}
