import type { Core } from '../core.js'
import { hasSignatureOf, Images, isImageContentType, MAX_IMAGE_BYTES } from '../domain/images.js'
import { badRequest, notFound } from '../http/errors.js'
import { RawBody } from '../http/body.js'
import { ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'

/** I1, I2 (§4): the image service. */
export function registerImageRoutes(routes: Routes, core: Core): void {
  const images = core.use(Images)

  // A little over 10 MiB reaches the handler, so a slightly oversized picture gets the contract's 400.
  routes.image.post('/pictures', { bodyLimit: MAX_IMAGE_BYTES + 1024 * 1024 }, (ctx) => {
    const body = ctx.body
    if (!(body instanceof RawBody)) throw badRequest('Send the picture as raw bytes')
    const type = body.contentType.split(';')[0]?.trim().toLowerCase() ?? ''
    if (!isImageContentType(type)) throw badRequest('Content-Type must be image/jpeg, image/png or image/gif')
    if (body.bytes.length < 1 || body.bytes.length > MAX_IMAGE_BYTES) throw badRequest('A picture is 1 byte to 10 MiB')
    if (!hasSignatureOf(type, body.bytes)) throw badRequest(`The bytes do not begin with the ${type} signature`)
    const url = images.store(ctx.caller.userId, type, body.bytes)
    return ok({ payload: { url, picture_url: url } })
  })

  routes.image.get('/i/:image_id', { auth: 'none' }, (ctx) => {
    const image = images.get(ctx.params['image_id'] ?? '')
    if (image === undefined) throw notFound('No such image')
    return { status: 200, raw: { contentType: image.content_type, bytes: image.bytes } }
  })
}
