// The access token never reaches the renderer. Ada uses the app in Chromium as a person would for
// a whole session: signs in through the SMS code, opens conversations, sends, receives, reacts,
// sends a picture, opens every Settings tab, signs out (while the service is away) and in again
// (a new token) and reloads the page. Meanwhile every bridge frame both ways, every console line,
// every page address and request, and every line main logged are recorded. Then both tokens, read
// from where browser mode keeps them, are looked for in all of it and in everything the page
// holds: the DOM with its attributes and field values, both storages, IndexedDB, cookies, Cache
// Storage and the strings of the page's JavaScript heap.
// The scan cannot pass for want of looking: the recordings must hold what the session said (a
// message both ways, main's warning from signing out while the service was away), and a control
// plants the token in each place the page holds, and in the console, and proves the scan finds it.
import { inspect } from 'node:util'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import type { Log } from '../../src/main/log/log'
import { connection, conversation, EndToEnd, expectShownOnce, FIRST_GROUP, keptToken, send } from './support'

const OTHER_GROUP = 'Launch Team'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** Everything the page and main said over the session, by where it was heard. */
class Recording {
  readonly framesSent: string[] = []
  readonly framesReceived: string[] = []
  readonly console: string[] = []
  readonly addresses: string[] = []
  readonly requests: string[] = []
  readonly logLines: string[] = []

  /** Main's log: each line with its details written out in full, errors and nested objects included. */
  readonly log: Log = {
    info: (message, details) => this.#logged('info', message, details),
    warn: (message, details) => this.#logged('warn', message, details),
    error: (message, details) => this.#logged('error', message, details)
  }

  /** Listens to the page from before it loads the app. */
  watch(page: Page): void {
    page.on('websocket', (socket) => {
      socket.on('framesent', (frame) => this.framesSent.push(String(frame.payload)))
      socket.on('framereceived', (frame) => this.framesReceived.push(String(frame.payload)))
    })
    page.on('console', (message) => this.console.push(`${message.type()}: ${message.text()} ${JSON.stringify(message.location())}`))
    page.on('framenavigated', (frame) => this.addresses.push(frame.url()))
    page.on('request', (request) => this.requests.push(`${request.method()} ${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`))
  }

  #logged(level: string, message: string, details: unknown): void {
    this.logLines.push(`${level}: ${message} ${details === undefined ? '' : inspect(details, { depth: 10 })}`)
  }
}

/**
 * What the page holds, read in the page, one text per place: the DOM as markup (attribute values
 * included), the values of fields (which markup does not carry), both storages, every IndexedDB
 * database with every record of every store, the page's cookies, and every Cache Storage entry
 * with its body. Run as `(PAGE_HOLDINGS_IN_PAGE)()`.
 */
const PAGE_HOLDINGS_IN_PAGE = `async () => {
  const readStore = (database, name) => new Promise((resolve, reject) => {
    const request = database.transaction(name, 'readonly').objectStore(name).getAll()
    request.onsuccess = () => resolve(JSON.stringify(request.result))
    request.onerror = () => reject(request.error)
  })
  const openDatabase = (name) => new Promise((resolve, reject) => {
    const request = indexedDB.open(name)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  const databases = await indexedDB.databases()
  const records = []
  for (const { name } of databases) {
    const database = await openDatabase(name)
    for (const store of database.objectStoreNames) records.push(name + '/' + store + ': ' + (await readStore(database, store)))
    database.close()
  }
  const cached = []
  for (const key of await caches.keys()) {
    const cache = await caches.open(key)
    for (const request of await cache.keys()) cached.push(key + ' ' + request.url + ' ' + (await (await cache.match(request)).text()))
  }
  const entries = (storage) => JSON.stringify(Object.keys(storage).map((key) => [key, storage.getItem(key)]))
  return {
    dom: document.documentElement.outerHTML,
    fieldValues: JSON.stringify([...document.querySelectorAll('input, textarea, select')].map((field) => field.value)),
    localStorage: entries(localStorage),
    sessionStorage: entries(sessionStorage),
    indexedDB: JSON.stringify(databases) + ' ' + records.join(' '),
    cookies: document.cookie,
    cacheStorage: cached.join(' '),
    address: location.href + ' ' + JSON.stringify(history.state),
    title: document.title
  }
}`

async function pageHoldings(page: Page): Promise<Record<string, string>> {
  return page.evaluate<Record<string, string>>(`(${PAGE_HOLDINGS_IN_PAGE})()`)
}

/**
 * The page's JavaScript heap, as the engine's heap snapshot: its strings table holds every string
 * the page's scripts keep, in state, closures and caches no storage or markup shows.
 */
async function heapSnapshot(page: Page, context: BrowserContext): Promise<string> {
  const session = await context.newCDPSession(page)
  const chunks: string[] = []
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk))
  await session.send('HeapProfiler.enable')
  await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  await session.detach()
  return chunks.join('')
}

/** Every place the renderer could keep or show a token, or main could let one slip, as text by name. */
async function everyPlace(page: Page, context: BrowserContext, recording: Recording): Promise<Record<string, string>> {
  return {
    ...(await pageHoldings(page)),
    jsHeap: await heapSnapshot(page, context),
    browserCookies: JSON.stringify(await context.cookies()),
    pageAddress: page.url(),
    addressesVisited: recording.addresses.join('\n'),
    requests: recording.requests.join('\n'),
    framesSent: recording.framesSent.join('\n'),
    framesReceived: recording.framesReceived.join('\n'),
    console: recording.console.join('\n'),
    mainLog: recording.logLines.join('\n')
  }
}

/** The names of the places whose text holds `secret`. */
function placesHolding(places: Record<string, string>, secret: string): string[] {
  return Object.entries(places)
    .filter(([, text]) => text.includes(secret))
    .map(([name]) => name)
}

function row(page: Page, text: string): Locator {
  return page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text })
}

/** A small real PNG Chromium can draw. */
function picture(): Buffer {
  const bitmap = blankBitmap(8, 8)
  for (let x = 0; x < 8; x += 1) for (let y = 0; y < 8; y += 1) setPixel(bitmap, x, y, [x * 30, 90, 200, 255])
  return encodePng(bitmap)
}

describe("Ada's access token, over a whole session", () => {
  const recording = new Recording()
  let ada: Page
  let context: BrowserContext
  let dataDir: string
  const tokens: string[] = []

  it('signs in through the SMS code; the token main keeps is a real one', async () => {
    ;({ page: ada, context, dataDir } = await world.openApp('ada', { log: recording.log, watch: (page) => recording.watch(page) }))
    await world.signIn(ada, world.account('Ada'))
    await expect.poll(() => connection(ada)).toBe('Connected')
    tokens.push(keptToken(dataDir))
    expect(tokens[0]).toMatch(/^[A-Za-z0-9]{40}$/)
    // The token works: the service answers it as Ada.
    const me = await world.get<{ response: { email: string } }>('/v3/users/me', tokens[0] ?? '')
    expect(me.response.email).toBe(world.account('Ada').email)
  })

  it('opens conversations, sends, receives, reacts and sends a picture', async () => {
    await conversation(ada, FIRST_GROUP).click()
    await send(ada, 'Secrets test: hello from Ada')
    await expectShownOnce(ada, 'Secrets test: hello from Ada')

    const grace = await world.restToken(world.account('Grace'), 'e2e-check-device')
    const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', grace)
    const group = groups.response.find((candidate) => candidate.name === FIRST_GROUP)
    await world.sendGroupMessage(grace, group?.id ?? '', 'Secrets test: hello from Grace', 'secrets-from-grace')
    await expectShownOnce(ada, 'Secrets test: hello from Grace')

    await row(ada, 'Secrets test: hello from Grace').getByRole('toolbar', { name: 'Message actions' }).getByRole('button', { name: 'React' }).click()
    await ada.getByRole('menuitem', { name: '👍', exact: true }).click()
    await row(ada, 'Secrets test: hello from Grace').getByRole('button', { name: /👍/ }).waitFor()

    const chooser = ada.waitForEvent('filechooser')
    await ada.getByRole('button', { name: 'Attach image' }).click()
    await (await chooser).setFiles([{ name: 'dot.png', mimeType: 'image/png', buffer: picture() }])
    await expect.poll(() => ada.getByRole('button', { name: 'Send' }).isEnabled(), { timeout: 30_000 }).toBe(true)
    await send(ada, 'Secrets test: a picture')
    await row(ada, 'Secrets test: a picture').getByRole('img', { name: /^Picture from / }).waitFor()

    await conversation(ada, OTHER_GROUP).click()
    await ada.getByRole('heading', { name: OTHER_GROUP, level: 2 }).waitFor()
  })

  it('opens every Settings tab', async () => {
    await ada.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = ada.getByRole('dialog', { name: 'Settings' })
    for (const tab of ['Notifications', 'Account', 'Security', 'Storage', 'Service']) {
      await settings.getByRole('tab', { name: tab }).click()
      await expect.poll(() => settings.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true')
    }
    await settings.getByRole('tab', { name: 'Security' }).click()
    await settings.getByRole('list', { name: 'Signed-in apps' }).getByRole('listitem').first().waitFor()
    await settings.getByRole('button', { name: 'Close' }).click()
  })

  it('signs out while the service is away (main logs that the token outlives it there), and in again once it is back, with a new token', async () => {
    await world.stopService()
    await expect.poll(() => connection(ada), { timeout: 30_000 }).not.toBe('Connected')
    await ada.getByRole('button', { name: 'Sign out' }).click()
    await ada.getByRole('textbox', { name: 'Username' }).waitFor()
    await expect.poll(() => recording.logLines.some((line) => line.includes('could not revoke the token'))).toBe(true)

    await world.restartService()
    // The device is known now: the password alone signs in again.
    await ada.getByRole('textbox', { name: 'Username' }).fill(world.account('Ada').email)
    await ada.getByRole('textbox', { name: 'Password' }).fill(world.account('Ada').password)
    await ada.getByRole('button', { name: 'Sign in' }).click()
    await conversation(ada, FIRST_GROUP).waitFor()
    await expect.poll(() => connection(ada), { timeout: 30_000 }).toBe('Connected')
    tokens.push(keptToken(dataDir))
    expect(tokens[1]).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(tokens[1]).not.toBe(tokens[0])

    await conversation(ada, FIRST_GROUP).click()
    await send(ada, 'Secrets test: back again')
    await expectShownOnce(ada, 'Secrets test: back again')
  })

  it('reloads the page and finds the session still there', async () => {
    await ada.reload()
    await conversation(ada, FIRST_GROUP).waitFor()
    await expect.poll(() => connection(ada)).toBe('Connected')
    await conversation(ada, FIRST_GROUP).click()
    await expectShownOnce(ada, 'Secrets test: back again')
  })

  it('finds neither token anywhere in the renderer, in any frame, in the console or in main\'s log', async () => {
    const places = await everyPlace(ada, context, recording)
    // The recording heard the session: the scan below has something to look through.
    expect(places.framesSent).toContain('Secrets test: back again')
    expect(places.framesReceived).toContain('Secrets test: hello from Grace')
    expect(places.dom).toContain('Secrets test: back again')
    expect(places.jsHeap).toContain('Secrets test: back again')
    expect(places.mainLog).toContain('could not revoke the token at the service that issued it')
    for (const token of tokens) expect(placesHolding(places, token)).toEqual([])
    expect(world.pageErrors).toEqual([])
  })

  it('would find a token in each of those places: the control', async () => {
    const token = tokens[1] ?? ''
    await ada.evaluate(`(async (token) => {
      document.body.dataset.control = token
      const field = document.createElement('input')
      field.id = 'control-field'
      document.body.append(field)
      field.value = token
      localStorage.setItem('control', token)
      sessionStorage.setItem('control', token)
      document.cookie = 'control=' + token
      await (await caches.open('control')).put('/control', new Response(token))
      await new Promise((resolve, reject) => {
        const request = indexedDB.open('control')
        request.onupgradeneeded = () => request.result.createObjectStore('control')
        request.onsuccess = () => {
          const database = request.result
          const write = database.transaction('control', 'readwrite')
          write.objectStore('control').put(token, 'control')
          write.oncomplete = () => { database.close(); resolve() }
          write.onerror = () => reject(write.error)
        }
        request.onerror = () => reject(request.error)
      })
      window.controlToken = token
      console.log('control', token)
    })(${JSON.stringify(token)})`)
    await expect.poll(() => recording.console.some((line) => line.includes(token))).toBe(true)

    const found = placesHolding(await everyPlace(ada, context, recording), token)
    const planted = ['dom', 'fieldValues', 'localStorage', 'sessionStorage', 'indexedDB', 'cookies', 'cacheStorage', 'browserCookies', 'jsHeap', 'console']
    expect(found.toSorted()).toEqual(planted.toSorted())
  })
})
