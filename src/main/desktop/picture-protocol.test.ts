import { describe, expect, it, vi } from 'vitest'
import type { KeptPicture } from '../core/ports'
import { schemePictureAddress } from '../hosting/kept-pictures'
import { declarePictureScheme, handlePictures, pictureResponse } from './picture-protocol'

const UPSTREAM = 'https://i.example.test/ridge.png?size=large&v=2'
const PNG: KeptPicture = { contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }

describe('the kept pictures scheme', () => {
  it('is declared standard and secure, so its addresses parse like http\'s and count as no mixed content', () => {
    const protocol = { registerSchemesAsPrivileged: vi.fn() }
    declarePictureScheme(protocol)
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([{ scheme: 'parley-picture', privileges: { standard: true, secure: true } }])
  })

  it('answers the address main handed the page with the picture kept for the address it stands for', async () => {
    const serve = vi.fn(async (url: string) => (url === UPSTREAM ? PNG : null))
    const protocol = { handle: vi.fn() }
    handlePictures(protocol, serve)
    const [scheme, handler] = protocol.handle.mock.calls[0] as [string, (request: Request) => Promise<Response>]
    expect(scheme).toBe('parley-picture')

    const response = await handler(new Request(schemePictureAddress(UPSTREAM)))

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG.bytes)
    expect(serve).toHaveBeenCalledWith(UPSTREAM)
  })

  it('answers 404 for a picture it has not and cannot fetch, and refuses anything but a GET', async () => {
    const serve = vi.fn(async () => null)
    expect((await pictureResponse(new Request(schemePictureAddress(UPSTREAM)), serve)).status).toBe(404)
    expect((await pictureResponse(new Request(schemePictureAddress(UPSTREAM), { method: 'POST', body: 'x' }), serve)).status).toBe(405)
    expect(serve).toHaveBeenCalledTimes(1)
  })
})
