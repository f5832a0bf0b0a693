import { describe, expect, it } from 'vitest'
import type { UploadProgress } from '@shared/messages'
import { AppError } from './app-error'
import type { ImageService } from './ports'
import { Uploads } from './uploads'

type Upload = Parameters<ImageService['uploadImage']>[0]

/** An image service that hands each upload to the test, to move along and finish as it likes. */
function uploadsWith(): { uploads: Uploads; progress: UploadProgress[]; started: Upload[]; finish: (url: string) => void; fail: (error: unknown) => void } {
  const progress: UploadProgress[] = []
  const started: Upload[] = []
  let finish: (url: string) => void = () => undefined
  let fail: (error: unknown) => void = () => undefined
  const uploads = new Uploads({
    upload: (upload) => {
      started.push(upload)
      return new Promise<string>((resolve, reject) => {
        finish = resolve
        fail = reject
        upload.signal.addEventListener('abort', () => reject(new AppError('NETWORK', 'aborted')))
      })
    },
    progress: (event) => progress.push(event)
  })
  return { uploads, progress, started, finish: (url) => finish(url), fail: (error) => fail(error) }
}

function png(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47])
  return bytes
}

describe('Uploads', () => {
  it('reports progress once per whole percent, from nothing to all', async () => {
    const { uploads, progress, started, finish } = uploadsWith()
    const done = uploads.start('u1', 'image/png', png(1000))
    const [upload] = started
    for (const sent of [1, 5, 10, 11, 19, 20, 1000]) upload?.onProgress(sent)
    finish('http://x/image/i/1')

    await expect(done).resolves.toBe('http://x/image/i/1')
    expect(progress.map((event) => event.sentBytes)).toEqual([0, 10, 20, 1000])
    expect(progress.every((event) => event.uploadId === 'u1' && event.totalBytes === 1000)).toBe(true)
  })

  it('fails as cancelled when cancelled, and again when everything is cancelled at sign-out', async () => {
    const { uploads } = uploadsWith()
    const first = uploads.start('u1', 'image/png', png(10))
    uploads.cancel('u1')
    await expect(first).rejects.toMatchObject({ code: 'CONFLICT', message: 'The upload was cancelled.' })

    const second = uploads.start('u2', 'image/png', png(10))
    uploads.cancelAll()
    await expect(second).rejects.toMatchObject({ code: 'CONFLICT', message: 'The upload was cancelled.' })
  })

  it('refuses bytes that do not begin as their type says, before uploading', async () => {
    const { uploads, started } = uploadsWith()
    await expect(uploads.start('u1', 'image/gif', png(10))).rejects.toMatchObject({ code: 'VALIDATION' })
    expect(started).toEqual([])
  })

  it('refuses a second upload under an id still in use', async () => {
    const { uploads } = uploadsWith()
    void uploads.start('u1', 'image/png', png(10)).catch(() => undefined)
    await expect(uploads.start('u1', 'image/png', png(10))).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it("words the image service's refusal for the user, and passes other failures on", async () => {
    const refused = uploadsWith()
    const first = refused.uploads.start('u1', 'image/png', png(10))
    refused.fail(new AppError('VALIDATION', 'The service did not accept that.'))
    await expect(first).rejects.toMatchObject({ code: 'VALIDATION', message: 'The image service did not accept this picture. Try another one.' })

    const unreachable = uploadsWith()
    const second = unreachable.uploads.start('u2', 'image/png', png(10))
    unreachable.fail(new AppError('NETWORK', 'Cannot reach the service.'))
    await expect(second).rejects.toMatchObject({ code: 'NETWORK', message: 'Cannot reach the service.' })
  })
})
