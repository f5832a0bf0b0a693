// The pictures waiting in the composer. Each starts uploading as soon as it is added, so it is
// usually ready by the time the user presses Send, and a Send pressed sooner waits for it
// (`whenUploaded`); a failed or cancelled upload keeps its place (and the rest of the draft) until
// the user retries or removes it. They are kept per conversation, as the text is, so switching away
// or editing another message loses none. Sending takes away only the pictures it sent (`take`):
// one added while the message was on its way stays for the next. Each change that a draft kept in
// main would hold differently (a picture uploaded, taken or removed) is told to `changed`.
import { SvelteMap } from 'svelte/reactivity'
import type { ConversationId } from '@shared/conversation-id'
import type { DraftPicture } from '@shared/drafts'
import { imageFileProblem, isImageContentType } from '@shared/image-files'
import { MAX_ATTACHMENTS } from '@shared/limits'
import { call, listen, messageOf } from '../main-process'

export interface DraftImage {
  id: string
  /**
   * The id in main of the latest attempt to upload it. Each attempt has its own, so the late
   * answer of one that was cancelled can never pass for the answer of a retry.
   */
  uploadId: string
  file: File
  /** An object URL of the file, for the preview. */
  previewUrl: string
  state: 'uploading' | 'uploaded' | 'failed'
  sentBytes: number
  /** The image service's URL, once uploaded. */
  url: string | null
  /** Why the upload stopped, in the user's words. */
  error: string | null
}

export class AttachmentDrafts {
  images = $state<DraftImage[]>([])
  /** Why the files last offered were not all taken. */
  notice = $state<string | null>(null)

  /** Every picture is uploaded: the message can go. */
  ready = $derived(this.images.every((image) => image.state === 'uploaded'))

  /** A picture did not upload: the message cannot go until it is retried or removed. */
  failed = $derived(this.images.some((image) => image.state === 'failed'))

  /** Checks made by `whenUploaded`, each run again whenever a picture stops uploading or goes; not state, as nothing draws them. */
  #waiting: (() => boolean)[] = []
  readonly #changed: () => void

  constructor(changed: () => void = () => undefined) {
    this.#changed = changed
  }

  /** The pictures as a kept draft holds them: those uploaded, each by the address the message will carry. */
  get kept(): DraftPicture[] {
    return this.images.flatMap((image): DraftPicture[] =>
      image.state === 'uploaded' && image.url !== null && isImageContentType(image.file.type)
        ? [{ id: image.id, name: image.file.name, contentType: image.file.type, url: image.url }]
        : []
    )
  }

  /**
   * Pictures of a draft kept in main, after a reload or a restart: uploaded already, so their
   * preview is the uploaded picture and they need no file (an empty one stands in for its name and type).
   */
  restore(pictures: readonly DraftPicture[]): void {
    for (const picture of pictures) {
      if (this.images.length >= MAX_ATTACHMENTS || this.#find(picture.id) !== undefined) continue
      const file = new File([], picture.name, { type: picture.contentType })
      this.images.push({ id: picture.id, uploadId: picture.id, file, previewUrl: picture.url, state: 'uploaded', sentBytes: 0, url: picture.url, error: null })
    }
  }

  noteProgress(uploadId: string, sentBytes: number): void {
    const image = this.images.find((candidate) => candidate.uploadId === uploadId)
    if (image?.state === 'uploading') image.sentBytes = sentBytes
  }

  /**
   * Resolves once none of these pictures is uploading any more: with those still here (every one
   * of them uploaded), or with null when any failed or was cancelled. One the user removed meanwhile
   * is simply not among them.
   */
  whenUploaded(ids: readonly string[]): Promise<DraftImage[] | null> {
    return new Promise((resolve) => {
      const settled = (): boolean => {
        const still = this.images.filter((image) => ids.includes(image.id))
        if (still.some((image) => image.state === 'uploading')) return false
        this.#waiting = this.#waiting.filter((other) => other !== settled)
        resolve(still.some((image) => image.state === 'failed') ? null : still)
        return true
      }
      if (!settled()) this.#waiting.push(settled)
    })
  }

  /** The message carrying these pictures went: they leave the composer, and any other stays. */
  take(ids: readonly string[]): void {
    for (const image of this.images) if (ids.includes(image.id)) URL.revokeObjectURL(image.previewUrl)
    this.images = this.images.filter((image) => !ids.includes(image.id))
    this.notice = null
    this.#settle()
    this.#changed()
  }

  /** Takes the files that can be sent as pictures, up to the limit, and says why any others were not taken. */
  add(files: readonly File[]): void {
    const refused: string[] = []
    for (const file of files) {
      const problem = imageFileProblem(file)
      if (problem !== null) {
        refused.push(problem)
      } else if (this.images.length >= MAX_ATTACHMENTS) {
        refused.push(`A message can carry at most ${MAX_ATTACHMENTS} pictures, so “${file.name}” was not added.`)
      } else {
        const id = crypto.randomUUID()
        this.images.push({ id, uploadId: id, file, previewUrl: URL.createObjectURL(file), state: 'uploading', sentBytes: 0, url: null, error: null })
        void this.#upload(id)
      }
    }
    this.notice = refused.length === 0 ? null : refused.join(' ')
  }

  retry(id: string): void {
    if (this.#find(id)?.state === 'failed') void this.#upload(id)
  }

  /** Stops an upload; the picture stays, to retry or remove. */
  cancel(id: string): void {
    const image = this.#find(id)
    if (image?.state !== 'uploading') return
    image.state = 'failed'
    image.error = 'Upload cancelled.'
    void call('uploads:cancel', { uploadId: image.uploadId }).catch(() => undefined)
    this.#settle()
  }

  remove(id: string): void {
    const image = this.#find(id)
    if (!image) return
    if (image.state === 'uploading') void call('uploads:cancel', { uploadId: image.uploadId }).catch(() => undefined)
    URL.revokeObjectURL(image.previewUrl)
    this.images = this.images.filter((other) => other.id !== id)
    this.notice = null
    this.#settle()
    this.#changed()
  }

  /** Another user signed in: let go of every picture. */
  clear(): void {
    for (const image of this.images) {
      if (image.state === 'uploading') void call('uploads:cancel', { uploadId: image.uploadId }).catch(() => undefined)
      URL.revokeObjectURL(image.previewUrl)
    }
    this.images = []
    this.notice = null
    this.#settle()
  }

  async #upload(id: string): Promise<void> {
    const image = this.#find(id)
    if (!image) return
    const uploadId = crypto.randomUUID()
    image.uploadId = uploadId
    image.state = 'uploading'
    image.sentBytes = 0
    image.error = null
    /** Still this attempt's picture: not removed, cancelled or tried again meanwhile. */
    const current = (): DraftImage | undefined => {
      const now = this.#find(id)
      return now?.uploadId === uploadId && now.state === 'uploading' ? now : undefined
    }
    try {
      const contentType = image.file.type
      // Checked when the file was added; this only tells the compiler so.
      if (!isImageContentType(contentType)) throw new Error(`${contentType} is not a picture type`)
      const bytes = new Uint8Array(await image.file.arrayBuffer())
      const { url } = await call('uploads:start', { uploadId, contentType, bytes })
      const uploaded = current()
      if (uploaded === undefined) return
      uploaded.state = 'uploaded'
      uploaded.url = url
      uploaded.sentBytes = image.file.size
      this.#changed()
    } catch (error) {
      const failed = current()
      // Cancelled, removed or tried again meanwhile: that already said what happened.
      if (failed === undefined) return
      failed.state = 'failed'
      failed.error = `Upload failed. ${messageOf(error)}`
    } finally {
      this.#settle()
    }
  }

  #settle(): void {
    for (const settled of this.#waiting) settled()
  }

  #find(id: string): DraftImage | undefined {
    return this.images.find((image) => image.id === id)
  }
}

/** Every conversation's waiting pictures, and the one listener that moves their progress bars. */
export class AttachmentDraftsByConversation {
  readonly #all = new SvelteMap<ConversationId, AttachmentDrafts>()
  /** Where nothing is open: the composer is disabled then, so nothing here is ever sent. */
  readonly #nowhere = new AttachmentDrafts()
  readonly #changed: (conversationId: ConversationId) => void

  /** `changed`: a conversation's pictures changed as a kept draft holds them. */
  constructor(changed: (conversationId: ConversationId) => void = () => undefined) {
    this.#changed = changed
  }

  for(conversationId: ConversationId | null): AttachmentDrafts {
    if (conversationId === null) return this.#nowhere
    const existing = this.#all.get(conversationId)
    if (existing) return existing
    const drafts = new AttachmentDrafts(() => this.#changed(conversationId))
    this.#all.set(conversationId, drafts)
    return drafts
  }

  /** The conversation's pictures, if any were ever chosen there; none are made for asking. */
  peek(conversationId: ConversationId): AttachmentDrafts | undefined {
    return this.#all.get(conversationId)
  }

  listen(): () => void {
    return listen('uploads:progress', ({ uploadId, sentBytes }) => {
      for (const drafts of this.#all.values()) drafts.noteProgress(uploadId, sentBytes)
    })
  }

  /** Another user signed in: nothing the previous one attached may show for them. */
  forget(): void {
    for (const drafts of this.#all.values()) drafts.clear()
    this.#all.clear()
  }
}
