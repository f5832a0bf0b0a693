// Pictures on their way to the image service. The renderer hands over the bytes (it never holds
// the token); this keeps each upload cancellable by its id and reports its progress in whole
// percents, which is as fine as a progress bar can show.
import type { UploadProgress } from '@shared/messages'
import { hasImageSignature, MAX_IMAGE_BYTES, type ImageContentType } from '@shared/image-files'
import { AppError } from './app-error'
import { errorCodeOf } from './failures'
import type { ImageService } from './ports'

export interface UploadsDependencies {
  upload: ImageService['uploadImage']
  progress(progress: UploadProgress): void
}

export class Uploads {
  readonly #deps: UploadsDependencies
  readonly #running = new Map<string, AbortController>()

  constructor(deps: UploadsDependencies) {
    this.#deps = deps
  }

  /** Resolves with the picture's URL. Fails with CONFLICT when cancelled, and refuses bytes that are not the picture they claim to be. */
  async start(uploadId: string, contentType: ImageContentType, bytes: Uint8Array): Promise<string> {
    if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) {
      throw new AppError('VALIDATION', 'A picture can be at most 10 MB.')
    }
    if (!hasImageSignature(contentType, bytes)) {
      throw new AppError('VALIDATION', 'This file is not a JPEG, PNG or GIF picture, so it cannot be sent.')
    }
    if (this.#running.has(uploadId)) throw new AppError('CONFLICT', 'This picture is already being uploaded.')
    const controller = new AbortController()
    this.#running.set(uploadId, controller)
    const totalBytes = bytes.length
    let reportedPercent = 0
    this.#deps.progress({ uploadId, sentBytes: 0, totalBytes })
    try {
      const url = await this.#deps.upload({
        bytes,
        contentType,
        signal: controller.signal,
        onProgress: (sentBytes) => {
          const percent = Math.floor((sentBytes * 100) / totalBytes)
          if (percent <= reportedPercent || controller.signal.aborted) return
          reportedPercent = percent
          this.#deps.progress({ uploadId, sentBytes, totalBytes })
        }
      })
      if (controller.signal.aborted) throw cancelled()
      return url
    } catch (error) {
      if (controller.signal.aborted) throw cancelled()
      if (errorCodeOf(error) === 'VALIDATION') {
        throw new AppError('VALIDATION', 'The image service did not accept this picture. Try another one.', { cause: error })
      }
      throw error
    } finally {
      this.#running.delete(uploadId)
    }
  }

  cancel(uploadId: string): void {
    this.#running.get(uploadId)?.abort()
  }

  /** The user signed out: what they were uploading is theirs no longer to send. */
  cancelAll(): void {
    for (const controller of this.#running.values()) controller.abort()
  }
}

function cancelled(): AppError {
  return new AppError('CONFLICT', 'The upload was cancelled.')
}
