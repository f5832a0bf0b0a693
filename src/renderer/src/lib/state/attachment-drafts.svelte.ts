// The pictures waiting in the composer. Each starts uploading as soon as it is added, so it is
// usually ready by the time the user presses Send; a failed or cancelled upload keeps its place
// (and the rest of the draft) until the user retries or removes it. They are kept per
// conversation, as the text is, so switching away or editing another message loses none.
import { SvelteMap } from 'svelte/reactivity'
import type { ConversationId, ImageAttachment } from '../../../../shared/domain'
import { imageFileProblem, isImageContentType } from '../../../../shared/image-files'
import { MAX_ATTACHMENTS } from '../../../../shared/limits'
import { call, listen, messageOf } from '../ipc'

export interface DraftImage {
  /** Also the upload's id in main. */
  id: string
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

  /** What the message will carry. */
  attachments: ImageAttachment[] = $derived(
    this.images.flatMap((image) => (image.url === null ? [] : [{ type: 'image' as const, url: image.url }]))
  )

  noteProgress(uploadId: string, sentBytes: number): void {
    const image = this.#find(uploadId)
    if (image?.state === 'uploading') image.sentBytes = sentBytes
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
        this.images.push({ id, file, previewUrl: URL.createObjectURL(file), state: 'uploading', sentBytes: 0, url: null, error: null })
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
    void call('uploads:cancel', { uploadId: id }).catch(() => undefined)
  }

  remove(id: string): void {
    const image = this.#find(id)
    if (!image) return
    if (image.state === 'uploading') void call('uploads:cancel', { uploadId: id }).catch(() => undefined)
    URL.revokeObjectURL(image.previewUrl)
    this.images = this.images.filter((other) => other.id !== id)
    this.notice = null
  }

  /** The message went (or the composer is going away): let go of every picture. */
  clear(): void {
    for (const image of this.images) {
      if (image.state === 'uploading') void call('uploads:cancel', { uploadId: image.id }).catch(() => undefined)
      URL.revokeObjectURL(image.previewUrl)
    }
    this.images = []
    this.notice = null
  }

  async #upload(id: string): Promise<void> {
    const image = this.#find(id)
    if (!image) return
    image.state = 'uploading'
    image.sentBytes = 0
    image.error = null
    try {
      const contentType = image.file.type
      // Checked when the file was added; this only tells the compiler so.
      if (!isImageContentType(contentType)) throw new Error(`${contentType} is not a picture type`)
      const bytes = new Uint8Array(await image.file.arrayBuffer())
      const { url } = await call('uploads:start', { uploadId: id, contentType, bytes })
      const current = this.#find(id)
      if (current?.state !== 'uploading') return
      current.state = 'uploaded'
      current.url = url
      current.sentBytes = image.file.size
    } catch (error) {
      const current = this.#find(id)
      // Cancelled or removed meanwhile: that already said what happened.
      if (current?.state !== 'uploading') return
      current.state = 'failed'
      current.error = `Upload failed. ${messageOf(error)}`
    }
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

  for(conversationId: ConversationId | null): AttachmentDrafts {
    if (conversationId === null) return this.#nowhere
    const existing = this.#all.get(conversationId)
    if (existing) return existing
    const drafts = new AttachmentDrafts()
    this.#all.set(conversationId, drafts)
    return drafts
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
