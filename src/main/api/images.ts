// The image service (docs/protocol.md §4 I1): pictures are uploaded here first, and a message then
// carries the URL the service answered with.
import { z } from 'zod'
import type { ImageContentType } from '@shared/image-files'
import type { ServiceClient } from './service-client'

const uploadAnswer = z.object({ payload: z.object({ url: z.string().min(1) }) })

/** A 10 MiB picture on a slow uplink takes minutes, not the seconds an ordinary call gets. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000

export interface PictureUpload {
  bytes: Uint8Array
  contentType: ImageContentType
  signal?: AbortSignal
  onProgress?: (sentBytes: number) => void
}

/** I1. Resolves with the picture's image-service URL, which a message's image attachment carries. */
export async function uploadPicture(client: ServiceClient, upload: PictureUpload): Promise<string> {
  const answer = await client.call({
    operation: 'I1 upload picture',
    method: 'POST',
    host: 'image',
    path: '/pictures',
    rawBody: {
      bytes: upload.bytes,
      contentType: upload.contentType,
      ...(upload.onProgress === undefined ? {} : { onProgress: upload.onProgress })
    },
    ...(upload.signal === undefined ? {} : { signal: upload.signal }),
    timeoutMs: UPLOAD_TIMEOUT_MS,
    schema: uploadAnswer
  })
  return answer.payload.url
}
