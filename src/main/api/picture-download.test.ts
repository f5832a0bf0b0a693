import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadPicture, MAX_DOWNLOAD_BYTES, NotAPictureError } from './picture-download'

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')])

let server: Server
let origin: string
const requests: { path: string; headers: Record<string, unknown> }[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers })
    const answers: Record<string, () => void> = {
      '/ok.png': () => response.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(PNG),
      '/ok.webp': () => response.writeHead(200, { 'content-type': 'image/webp' }).end(WEBP),
      '/page.svg': () => response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      '/claims.png': () => response.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><script>alert(1)</script>'),
      '/gone.png': () => response.writeHead(404).end(),
      '/moved.png': () => response.writeHead(302, { location: `${origin}/ok.png` }).end(),
      '/huge.png': () => {
        response.writeHead(200, { 'content-type': 'image/png' })
        response.write(PNG)
        const chunk = Buffer.alloc(1024 * 1024)
        let sent = 0
        const more = (): void => {
          while (sent <= MAX_DOWNLOAD_BYTES / chunk.length) {
            sent += 1
            if (!response.write(chunk)) return void response.once('drain', more)
          }
          response.end()
        }
        more()
      }
    }
    ;(answers[request.url ?? ''] ?? (() => response.writeHead(500).end()))()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('downloadPicture', () => {
  it('fetches a picture of a type the page shows, with no token', async () => {
    expect(await downloadPicture(`${origin}/ok.png`)).toEqual({ contentType: 'image/png', bytes: new Uint8Array(PNG) })
    expect(await downloadPicture(`${origin}/ok.webp`)).toEqual({ contentType: 'image/webp', bytes: new Uint8Array(WEBP) })
    expect(requests.find((request) => request.path === '/ok.png')?.headers).not.toHaveProperty('x-access-token')
  })

  it('refuses SVG, bytes that are not the type claimed, a missing picture, a redirect and anything over the limit', async () => {
    for (const path of ['/page.svg', '/claims.png', '/gone.png', '/huge.png']) {
      await expect(downloadPicture(`${origin}${path}`), path).rejects.toBeInstanceOf(NotAPictureError)
    }
    const before = requests.filter((request) => request.path === '/ok.png').length
    await expect(downloadPicture(`${origin}/moved.png`)).rejects.toThrow()
    expect(requests.filter((request) => request.path === '/ok.png').length).toBe(before)
  })
})
