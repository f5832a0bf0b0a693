import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

/** I1 and I2 (§4): what an upload must be (§18.31), and how a stored picture is served. */

let service: TestService
let alice: TestUser

beforeAll(async () => {
  service = await startTestService()
  alice = await service.signUp({ name: 'Alice' })
})

afterAll(async () => {
  await service.close()
})

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const GIF = Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1')
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>')

const upload = (bytes: Buffer, contentType: string, token = alice.token) =>
  service.call('POST', '/image/pictures', { token, body: bytes, headers: { 'content-type': contentType } })

describe('I1 upload', () => {
  it('takes bytes that begin with the signature of their declared type', async () => {
    for (const [bytes, type] of [
      [JPEG, 'image/jpeg'],
      [PNG, 'image/png'],
      [GIF, 'image/gif'],
      [Buffer.from('GIF87a'), 'image/gif'],
      [Buffer.from([0xff, 0xd8, 0xff]), 'Image/JPEG; charset=binary']
    ] as const) {
      const result = await upload(bytes, type)
      expect(result.status, type).toBe(200)
      expect(result.body.payload.url).toMatch(/\/image\/i\/[0-9a-f]{32}$/)
    }
  })

  it('refuses bytes that are not what the type says, with 400 (§18.31)', async () => {
    for (const [bytes, type] of [
      [HTML, 'image/gif'],
      [HTML, 'image/png'],
      [HTML, 'image/jpeg'],
      [PNG, 'image/jpeg'],
      [JPEG, 'image/png'],
      [PNG, 'image/gif'],
      [GIF, 'image/png'],
      [Buffer.from('GIF7'), 'image/gif'],
      [Buffer.from('GI'), 'image/gif'],
      [Buffer.from([0xff, 0xd8]), 'image/jpeg'],
      [Buffer.from([0x89, 0x50, 0x4e]), 'image/png'],
      [Buffer.concat([Buffer.from(' '), PNG]), 'image/png']
    ] as const) {
      const result = await upload(bytes, type)
      expect(result.status, `${type} ${bytes.toString('latin1').slice(0, 10)}`).toBe(400)
      expect(result.body).toEqual({ response: null, meta: { code: 400, errors: [expect.any(String)] } })
    }
  })

  it('checks the token first (401), as for every operation', async () => {
    expect((await upload(HTML, 'image/gif', 'x'.repeat(40))).status).toBe(401)
  })
})

describe('I2 download', () => {
  it('serves the bytes with their stored type and X-Content-Type-Options: nosniff (§18.31)', async () => {
    const url = (await upload(GIF, 'image/gif')).body.payload.url as string
    const response = await fetch(url.replace(service.origin, service.boundOrigin))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/gif')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await response.arrayBuffer())).toEqual(GIF)
  })

  it('answers an unknown picture with 404', async () => {
    expect((await service.call('GET', `/image/i/${'0'.repeat(32)}`)).status).toBe(404)
  })
})
