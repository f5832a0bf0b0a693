// Pictures on their way to the image service, before a message carries them.
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import type { Uploads } from './uploads'

type UploadChannel = Extract<keyof InvokeHandlers, `uploads:${string}`>
export type UploadHandlers = Pick<InvokeHandlers, UploadChannel>

export function uploadHandlers(context: FeatureContext, uploads: Uploads): UploadHandlers {
  return {
    'uploads:start': async ({ uploadId, contentType, bytes }) => {
      context.me()
      return { url: await uploads.start(uploadId, contentType, bytes) }
    },
    'uploads:cancel': async ({ uploadId }) => {
      uploads.cancel(uploadId)
      return null
    }
  }
}
