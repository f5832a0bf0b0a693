// Pictures load only from picture origins, end to end. The local service takes only picture URLs
// its own image upload answered, so to put a picture URL on another origin in front of Ada, the
// test gives the service a public origin (SERVICE_PUBLIC_ORIGIN) that is a recording server's:
// every picture URL the service answers then names that server, as a member's own URLs would on a
// deployment that checks nothing, and as a deployment that serves its pictures from another host
// does. Grace uploads two pictures over REST, makes one her avatar and posts the other to the
// group Ada has open. Ada's page must ask the recording server for nothing: the picture is a link
// that opens through the external-link path, Grace's avatar her initials, and the page's policy
// refuses that origin as well. Once Ada lists it under Settings ▸ Service ▸ Picture origins, the
// page reloads under a policy that admits it, and both pictures load through the recording server,
// which passes the service's own bytes on.
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../server/src/index'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import { ServiceRest } from '../support/service-rest'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

/** Runs in the page before the app's scripts: every Content-Security-Policy refusal, as `directive url`. */
const VIOLATIONS = `
  window.__violations = []
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.effectiveDirective + ' ' + event.blockedURI)
  }, true)
`

interface RecordedRequest {
  method: string
  path: string
}

/**
 * A host of pictures that notes every request it gets. It answers a picture's path with the
 * service's bytes for it, so that a picture it is allowed to serve really loads.
 */
class RecordingServer {
  readonly requests: RecordedRequest[] = []
  /** Where it fetches what it serves: the service's own address, known once the service is up. */
  source: string | null = null
  readonly #server: Server

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<RecordingServer> {
    const server = createServer()
    const recorder = new RecordingServer(server)
    server.on('request', (request, response) => {
      recorder.requests.push({ method: request.method ?? '', path: request.url ?? '' })
      void recorder.#relay(request.url ?? '/').then(({ status, type, bytes }) => {
        response.writeHead(status, { 'content-type': type }).end(bytes)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return recorder
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve())
      this.#server.closeAllConnections()
    })
  }

  async #relay(path: string): Promise<{ status: number; type: string; bytes: Buffer }> {
    if (this.source === null || !path.startsWith('/image/i/')) return { status: 404, type: 'text/plain', bytes: Buffer.from('nothing here') }
    const answer = await fetch(new URL(path, this.source))
    return { status: answer.status, type: answer.headers.get('content-type') ?? 'application/octet-stream', bytes: Buffer.from(await answer.arrayBuffer()) }
  }
}

/** A real PNG, twice as wide as it is high, that Chromium can draw. */
function landscapePng(): Buffer {
  const bitmap = blankBitmap(40, 20)
  for (let x = 0; x < 40; x += 1) for (let y = 0; y < 20; y += 1) setPixel(bitmap, x, y, [x * 6, 90, 160, 255])
  return encodePng(bitmap)
}

/** How wide the picture is, once the page has decoded it (0 until then). This file is typed without the DOM. */
function loadedWidth(picture: Locator): Promise<number> {
  return picture.evaluate((image) => ('complete' in image && image.complete && 'naturalWidth' in image ? Number(image.naturalWidth) : 0))
}

/** The img-src sources of the policy browser mode serves with the page now. */
async function servedImageSources(appOrigin: string): Promise<string[]> {
  const response = await fetch(appOrigin)
  await response.arrayBuffer()
  const policy = response.headers.get('content-security-policy') ?? ''
  const directive = policy.split(';').map((part) => part.trim().split(/\s+/)).find(([name]) => name === 'img-src')
  return directive?.slice(1) ?? []
}

const TEXT = 'The ridge, from a host of its own'

let recorder: RecordingServer
let service: RunningService
let world: EndToEnd

beforeAll(async () => {
  recorder = await RecordingServer.start()
  service = await startService({ port: 0, dev: true, seed: 'demo', env: { SERVICE_PUBLIC_ORIGIN: recorder.origin } })
  recorder.source = service.boundOrigin
  world = await EndToEnd.start({ service: { origin: service.boundOrigin, demoAccounts: service.demoAccounts } })
})

afterAll(async () => {
  await world?.close()
  await service?.close()
  await recorder?.close()
})

describe('pictures from an origin that is not a picture origin', () => {
  let ada: Page
  let appOrigin: string
  const opened: string[] = []
  let pictureUrl: string
  let avatarUrl: string

  const message = (): Locator => ada.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: TEXT })
  /** Every picture address the page holds in an <img>, whatever its state. */
  const imageSources = (): Promise<string[]> => ada.locator('img').evaluateAll((images) => images.map((image) => ('src' in image ? String(image.src) : '')))

  it('signs Ada in, with the group open and her own message last in it', async () => {
    const app = await world.openApp('ada', { initScript: VIOLATIONS, openExternal: async (url) => void opened.push(url) })
    ada = app.page
    appOrigin = app.app.origin
    await world.signIn(ada, world.account('Ada'))
    await conversation(ada, FIRST_GROUP).click()
    // Grace's message then starts a block of its own, drawn with her name and avatar.
    await send(ada, 'Anyone been up the ridge?')
    await ada.getByRole('list', { name: 'Messages' }).getByText('Anyone been up the ridge?').waitFor()
    expect(await servedImageSources(appOrigin)).toEqual(["'self'", 'data:', 'blob:', 'parley-picture:', service.boundOrigin])
  })

  it("shows Grace's picture as a link and her avatar as her initials, and asks the recording server for nothing", async () => {
    const rest = new ServiceRest(service.boundOrigin, { appId: 'e2e-check' })
    const token = await rest.restToken(world.account('Grace'), 'picture-origins-grace')
    const upload = async (): Promise<string> => {
      const response = await fetch(`${service.boundOrigin}/image/pictures`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', 'x-access-token': token },
        body: landscapePng()
      })
      return ((await response.json()) as { payload: { url: string } }).payload.url
    }
    avatarUrl = await upload()
    pictureUrl = await upload()
    expect(new URL(pictureUrl).origin).toBe(recorder.origin)
    await rest.post('/v3/users/update', { avatar_url: avatarUrl }, { token })
    const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
    const group = groups.response.find((candidate) => candidate.name === FIRST_GROUP)
    await rest.post(`/v3/groups/${group?.id}/messages`, { message: { source_guid: randomUUID(), text: TEXT, attachments: [{ type: 'image', url: pictureUrl }] } }, { token })

    const link = message().getByRole('link', { name: pictureUrl })
    await link.waitFor({ timeout: 30_000 })
    expect(await link.getAttribute('href')).toBe(pictureUrl)
    // No picture in the message, and no avatar: Grace's initials stand in for it.
    expect(await message().locator('img').count()).toBe(0)
    await message().getByRole('button', { name: /^Grace/ }).click()
    const profile = ada.getByRole('dialog', { name: /^Grace/ })
    await profile.getByRole('button', { name: FIRST_GROUP }).waitFor()
    expect(await profile.locator('img').count()).toBe(0)
    await profile.getByRole('button', { name: 'Close' }).click()

    // Nothing in the page points at the recording server, so nothing can ask it later either.
    expect((await imageSources()).filter((source) => source.startsWith(recorder.origin))).toEqual([])
    expect(recorder.requests).toEqual([])
  })

  it('opens the picture through the external-link path when Ada clicks its link', async () => {
    const url = ada.url()
    await message().getByRole('link', { name: pictureUrl }).click()
    await expect.poll(() => opened).toEqual([pictureUrl])
    expect(ada.url()).toBe(url)
    expect(recorder.requests).toEqual([])
  })

  it("refuses that origin in the page's policy too, for a picture put into the page some other way", async () => {
    const probe = `${recorder.origin}/probe.png`
    await ada.evaluate(`document.body.append(Object.assign(document.createElement('img'), { src: ${JSON.stringify(probe)}, alt: '' }))`)
    await expect.poll(() => ada.evaluate<string[]>('window.__violations')).toContain(`img-src ${probe}`)
    expect(recorder.requests).toEqual([])
    await ada.evaluate(`document.querySelector('img[src=${JSON.stringify(probe)}]').remove()`)
  })

  it('loads both pictures from that origin once Ada lists it under Picture origins, after the page reloads', async () => {
    await ada.getByRole('button', { name: 'Settings', exact: true }).click()
    const dialog = ada.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('tab', { name: 'Service' }).click()
    const origins = dialog.getByRole('textbox', { name: 'Picture origins' })
    expect(await origins.inputValue()).toBe('')
    await origins.fill(recorder.origin)
    const reloaded = ada.waitForEvent('load')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await reloaded
    expect(await servedImageSources(appOrigin)).toEqual(["'self'", 'data:', 'blob:', 'parley-picture:', service.boundOrigin, recorder.origin])

    await conversation(ada, FIRST_GROUP).click()
    const picture = message().getByRole('img', { name: /^Picture from / })
    await picture.waitFor({ timeout: 30_000 })
    // Main fetches a picture it may keep as soon as it reads the message, through that origin too;
    // once kept, the page is given the copy on this device at its local address instead.
    const source = await picture.getAttribute('src')
    expect(source === pictureUrl || source === `${/^\/kept-pictures\/[\w-]+/.exec(source ?? '')?.[0]}?url=${encodeURIComponent(pictureUrl)}`, String(source)).toBe(true)
    await picture.scrollIntoViewIfNeeded()
    await expect.poll(() => loadedWidth(picture), { timeout: 30_000 }).toBe(40)
    // The sender's avatar too: from that origin, or the copy main kept of it.
    const avatar = message().locator(`img[src="${avatarUrl}"], img[src^="/kept-pictures/"][src$="?url=${encodeURIComponent(avatarUrl)}"]`)
    await expect.poll(() => loadedWidth(avatar), { timeout: 30_000 }).toBe(40)
    expect(await message().getByRole('link', { name: pictureUrl }).count()).toBe(0)

    const paths = recorder.requests.map((request) => `${request.method} ${request.path}`)
    expect(paths).toEqual(expect.arrayContaining([`GET ${new URL(pictureUrl).pathname}`, `GET ${new URL(avatarUrl).pathname}`]))
    expect(world.pageErrors).toEqual([])
  })
})
