import { z } from 'zod'
import type { Core } from '../core.js'
import { badRequest } from '../http/errors.js'
import { text } from '../http/validation.js'
import { Images } from './images.js'

/** What a message may hold (§10): its text and attachments, and the rules they must meet. */

export const MAX_TEXT = 1000
export const MAX_ATTACHMENTS = 10

const imageAttachment = z.object({ type: z.literal('image'), url: z.string() })
const locationAttachment = z.object({ type: z.literal('location'), lat: z.string(), lng: z.string(), name: z.string() })
const emojiAttachment = z.object({
  type: z.literal('emoji'),
  placeholder: z.string(),
  charmap: z.array(z.tuple([z.int().min(1), z.int().min(0)])).min(1)
})

/** What a client may attach; `poll` attachments are made only by the service (§10). */
export const clientAttachmentSchema = z.discriminatedUnion('type', [imageAttachment, locationAttachment, emojiAttachment])

export type Attachment =
  | z.output<typeof clientAttachmentSchema>
  | { type: 'poll'; poll_id: string }

/** The `text` and `attachments` fields of MS2 / C3 (and, for edits, MS4 / C4). */
export const contentFields = {
  text: text(0, MAX_TEXT).nullish(),
  attachments: z.array(clientAttachmentSchema).max(MAX_ATTACHMENTS).nullish()
}

export interface Content {
  text: string
  attachments: Attachment[]
}

/** What MS4 / C4 send: a missing or null field keeps its old value (§10). */
export interface ContentEdit {
  text?: string | null | undefined
  attachments?: Attachment[] | null | undefined
}

export class MessageContent {
  readonly #core: Core

  constructor(core: Core) {
    this.#core = core
  }

  /**
   * The content rules beyond syntax (§10): text missing/null/"" is stored as ""; a message needs
   * text or an attachment; image URLs must come from this service's image upload.
   */
  normalize(input: { text?: string | null | undefined; attachments?: Attachment[] | null | undefined }): Content {
    const content = { text: input.text ?? '', attachments: input.attachments ?? [] }
    if (content.text === '' && content.attachments.length === 0) throw badRequest('A message needs text or an attachment')
    this.assertImageUrls(content.attachments)
    return content
  }

  /** Image attachments must carry URLs of this service's image upload (400). */
  assertImageUrls(attachments: readonly Attachment[]): void {
    const images = this.#core.use(Images)
    attachments.forEach((attachment, index) => {
      if (attachment.type === 'image' && !images.isImageServiceUrl(attachment.url)) {
        throw badRequest(`attachments.${index}.url: must be an image-service URL`)
      }
    })
  }
}
