// A picture while it is being chosen, a group's or the user's own avatar: a new one goes to the
// image service (I1) as soon as it is picked, so it is usually ready by the time the user presses
// Create or Save. Until the upload has finished, the picture in force stays the one there was.
import { imageFileProblem, isImageContentType } from '@shared/image-files'
import { call, listen, messageOf } from '../main-process'

/** What a picture's field says, which differs between a group's picture and the user's avatar. */
export interface PictureWords {
  /** Set, the field is a fieldset of this name that the upload's progress and refusals describe. */
  legend?: string
  /** The preview's alternative text. */
  alt: string
  choose: string
  remove: string
  /** The progress bar's name. */
  progress: string
}

export const GROUP_PICTURE_WORDS: PictureWords = {
  legend: 'Picture',
  alt: 'Group avatar',
  choose: 'Choose picture',
  remove: 'Remove picture',
  progress: 'Uploading the picture'
}

export const AVATAR_WORDS: PictureWords = {
  alt: 'Your avatar',
  choose: 'Change avatar',
  remove: 'Remove avatar',
  progress: 'Uploading the avatar'
}

export class PictureChoice {
  /** The image service's URL of the picture to use; null for none. */
  url = $state<string | null>(null)
  /** What to show: the chosen file while it uploads, else the picture at `url`. */
  previewUrl = $state<string | null>(null)
  state = $state<'idle' | 'uploading' | 'failed'>('idle')
  sentBytes = $state(0)
  totalBytes = $state(0)
  /** Why the last file chosen is not the picture, in the user's words. */
  error = $state<string | null>(null)
  /** The user chose another picture, or none, since the last `reset`. */
  changed = $state(false)

  /** Nothing is on its way: `url` is what the user chose. */
  ready = $derived(this.state !== 'uploading')

  #uploadId: string | null = null
  #objectUrl: string | null = null

  constructor(url: string | null = null) {
    this.reset(url)
  }

  listen(): () => void {
    return listen('uploads:progress', ({ uploadId, sentBytes, totalBytes }) => {
      if (uploadId !== this.#uploadId) return
      this.sentBytes = sentBytes
      this.totalBytes = totalBytes
    })
  }

  /** Starts uploading this file as the new picture. */
  choose(file: File): void {
    const problem = imageFileProblem(file)
    if (problem !== null) {
      this.error = problem
      return
    }
    this.#stopUpload()
    this.changed = true
    this.#setObjectUrl(URL.createObjectURL(file))
    this.previewUrl = this.#objectUrl
    void this.#upload(file)
  }

  /** No picture at all. */
  remove(): void {
    this.#stopUpload()
    this.#setObjectUrl(null)
    this.changed = true
    this.url = null
    this.previewUrl = null
    this.state = 'idle'
    this.error = null
  }

  /** Shows `url` as the picture in force, forgetting any choice on its way. */
  reset(url: string | null): void {
    this.#stopUpload()
    this.#setObjectUrl(null)
    this.changed = false
    this.url = url
    this.previewUrl = url
    this.state = 'idle'
    this.error = null
  }

  async #upload(file: File): Promise<void> {
    const uploadId = crypto.randomUUID()
    this.#uploadId = uploadId
    this.state = 'uploading'
    this.sentBytes = 0
    this.totalBytes = file.size
    this.error = null
    try {
      // Checked by imageFileProblem; this only tells the compiler so.
      if (!isImageContentType(file.type)) throw new Error(`${file.type} is not a picture type`)
      const bytes = new Uint8Array(await file.arrayBuffer())
      const { url } = await call('uploads:start', { uploadId, contentType: file.type, bytes })
      if (this.#uploadId !== uploadId) return
      this.url = url
      this.state = 'idle'
    } catch (error) {
      // Replaced or removed meanwhile: the later choice stands.
      if (this.#uploadId !== uploadId) return
      this.state = 'failed'
      this.error = `The picture could not be uploaded. ${messageOf(error)}`
      this.previewUrl = this.url
    } finally {
      if (this.#uploadId === uploadId) this.#uploadId = null
    }
  }

  #stopUpload(): void {
    if (this.#uploadId !== null) void call('uploads:cancel', { uploadId: this.#uploadId }).catch(() => undefined)
    this.#uploadId = null
  }

  #setObjectUrl(url: string | null): void {
    if (this.#objectUrl !== null) URL.revokeObjectURL(this.#objectUrl)
    this.#objectUrl = url
  }
}
