// What every end-to-end test sets up the same way: the real local service on a file database with
// the demo accounts, Chromium, and one browser-mode app (its own core and data folder) per person,
// each in a browser context of its own, signed in through the SMS code as a person would.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { startService, type DemoAccount, type RunningService } from '../../server/src/index'
import { localServiceConfig } from '../../src/main/api/service-config'
import { startBrowserApp, type BrowserApp } from '../../src/main/browser/app'
import type { Log } from '../../src/main/log/log'
import { quietLog } from '../support/memory-platform'

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic'
]

/** Where a signed-in app lands: every demo account is a member of it. */
export const FIRST_GROUP = 'Weekend Hikers'

export interface OpenAppOptions {
  /** Runs in the page before any of the app's own scripts (see `BrowserContext.addInitScript`). */
  initScript?: string
  /** What the browser has already been allowed, as if the person had said yes before. */
  permissions?: string[]
  /** Where the app's links go instead of a browser; by default nowhere. */
  openExternal?: (url: string) => Promise<void>
  /** Where main's log lines go; by default nowhere. */
  log?: Log
  /** Called with the page before it loads the app, so listeners (console, WebSocket frames) hear everything. */
  watch?: (page: Page) => void
}

export interface OpenedApp {
  page: Page
  app: BrowserApp
  context: BrowserContext
  /** The app's own data folder: its session token, settings and drafts. */
  dataDir: string
}

/** A service the test runs itself (in a process of its own, say): EndToEnd uses it, the test stops and ends it. */
export interface ServiceElsewhere {
  /** Where it answers. The test's own requests (sign-ins over REST, reads, /dev/*) go straight here. */
  readonly origin: string
  readonly demoAccounts: readonly DemoAccount[]
}

export interface EndToEndOptions {
  /** Instead of a service in this process, on a file database of EndToEnd's own. */
  service?: ServiceElsewhere
  /** Where the apps reach the service, when something stands in between (a TCP proxy, say). */
  appOrigin?: string
}

/** The service, Chromium and the apps of one test file; `close()` ends them all. */
export class EndToEnd {
  readonly #dataDir: string
  readonly #databasePath: string
  readonly #browser: Browser
  readonly #apps: BrowserApp[] = []
  /** The service in this process, when EndToEnd started it; null when the test runs one elsewhere. */
  #ownService: RunningService | null
  readonly #origin: string
  readonly #appOrigin: string
  /** Kept from the first start: a restart on the same database does not seed again. */
  readonly #demoAccounts: readonly DemoAccount[]
  /** Uncaught errors in any page: the app must never throw at its user. */
  readonly pageErrors: Error[] = []

  private constructor(dataDir: string, databasePath: string, service: ServiceElsewhere, ownService: RunningService | null, appOrigin: string, browser: Browser) {
    this.#dataDir = dataDir
    this.#databasePath = databasePath
    this.#ownService = ownService
    this.#origin = service.origin
    this.#appOrigin = appOrigin
    this.#demoAccounts = service.demoAccounts
    this.#browser = browser
  }

  static async start(options: EndToEndOptions = {}): Promise<EndToEnd> {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'))
    const databasePath = join(dataDir, 'service.db')
    const ownService = options.service === undefined ? await startService({ port: 0, dev: true, db: databasePath, seed: 'demo' }) : null
    const service = options.service ?? ownService
    if (service === null) throw new Error('no service to test against')
    const browser = await chromium
      .launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
      .catch(async (error: unknown) => {
        await ownService?.close()
        throw error
      })
    return new EndToEnd(dataDir, databasePath, service, ownService, options.appOrigin ?? service.origin, browser)
  }

  /** The service's ORIGIN (§1): REST, push and /dev/* all live under it. */
  get origin(): string {
    return this.#origin
  }

  /** Stops the service; the apps stay up and find it gone. */
  async stopService(): Promise<void> {
    await this.#requireOwnService().close()
  }

  /** Starts the service again on the same port and database, as after a crash or an update. */
  async restartService(): Promise<void> {
    this.#requireOwnService()
    const port = Number(new URL(this.#origin).port)
    this.#ownService = await startService({ port, dev: true, db: this.#databasePath })
  }

  account(firstName: string): DemoAccount {
    const found = this.#demoAccounts.find((candidate) => candidate.name.startsWith(`${firstName} `))
    if (!found) throw new Error(`no demo account ${firstName}`)
    return found
  }

  /** A browser-mode app for one person, opened in a fresh browser context. */
  async openApp(name: string, options: OpenAppOptions = {}): Promise<OpenedApp> {
    const dataDir = join(this.#dataDir, name)
    const app = await startBrowserApp({
      dataDir,
      rendererDir: resolve('out/renderer'),
      config: localServiceConfig(this.#appOrigin),
      log: options.log ?? quietLog,
      openExternal: options.openExternal ?? (async () => undefined)
    })
    this.#apps.push(app)
    const context = await this.#browser.newContext({ permissions: options.permissions ?? [] })
    if (options.initScript !== undefined) await context.addInitScript({ content: options.initScript })
    const page = await context.newPage()
    page.on('pageerror', (error) => this.pageErrors.push(error))
    options.watch?.(page)
    await page.goto(app.url)
    return { page, app, context, dataDir }
  }

  /** Signs in through the app's own screens, with the SMS code read from the service's outbox. */
  async signIn(page: Page, who: DemoAccount): Promise<void> {
    await page.getByRole('textbox', { name: 'Username' }).fill(who.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(who.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const sentBefore = await this.smsCount(who.phoneNumber)
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByRole('textbox', { name: 'Verification code' }).fill(await this.nextSmsCode(who.phoneNumber, sentBefore))
    await page.getByRole('button', { name: 'Verify' }).click()
    await conversation(page, FIRST_GROUP).waitFor()
  }

  /** Ada and Grace, each in an app of their own, signed in and connected: where most tests begin. */
  async adaAndGrace(): Promise<{ ada: Page; grace: Page }> {
    const ada = (await this.openApp('ada')).page
    const grace = (await this.openApp('grace')).page
    await this.signIn(ada, this.account('Ada'))
    await this.signIn(grace, this.account('Grace'))
    await expect.poll(() => connection(ada)).toBe('Connected')
    await expect.poll(() => connection(grace)).toBe('Connected')
    return { ada, grace }
  }

  /**
   * An access token of the person's own, for reading back what the service holds as any client
   * would: the full new-device sign-in over REST (L1, V2, V3, L1 with the code). Another device id
   * than the app's, so the app's session is left alone.
   */
  async restToken(who: DemoAccount, deviceId: string): Promise<string> {
    const login = { app_id: 'e2e-check', grant_type: 'password', username: who.email, password: who.password, device_id: deviceId }
    const challenge = (await this.#post('/v2/access_tokens', login)) as { access_token?: string; verification?: { code: string } }
    if (challenge.access_token !== undefined) return challenge.access_token
    const code = challenge.verification?.code
    if (code === undefined) throw new Error(`L1 for ${who.email} answered neither a token nor a verification`)
    await this.#post(`/v3/verifications/${code}/initiate`, { verification: { method: 'sms' } })
    await this.#post(`/v3/verifications/${code}/confirm`, { verification: { pin: await this.lastSmsCode(who.phoneNumber) } })
    const granted = await this.#post('/v2/access_tokens', { ...login, verification: { code } })
    return (granted as { access_token: string }).access_token
  }

  /** A GET on the service with a token, its JSON answer as `T` (checked by the caller's asserts). */
  async get<T>(path: string, token: string): Promise<T> {
    const url = new URL(path, this.#origin)
    url.searchParams.set('token', token)
    const response = await fetch(url)
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }

  /** Moves the service's clock forward (§17), so every expiry on the service follows. */
  async advanceServiceClock(seconds: number): Promise<void> {
    await this.#post('/dev/clock', { advance_seconds: seconds })
  }

  async lastSmsCode(phoneNumber: string): Promise<string> {
    const code = (await this.#smsTo(phoneNumber)).at(-1)?.text.match(/\d{6}/)?.[0]
    if (code === undefined) throw new Error(`no code was sent to ${phoneNumber}`)
    return code
  }

  /** How many texts the service has sent to the number so far. */
  async smsCount(phoneNumber: string): Promise<number> {
    return (await this.#smsTo(phoneNumber)).length
  }

  /**
   * The code of the next text to the number after `sentBefore` texts (from `smsCount`): a code
   * sent earlier, for another sign-in, is no use and must not be read in its place.
   */
  async nextSmsCode(phoneNumber: string, sentBefore: number, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    while ((await this.smsCount(phoneNumber)) <= sentBefore) {
      if (Date.now() > deadline) throw new Error(`no new code was sent to ${phoneNumber} within ${timeoutMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return this.lastSmsCode(phoneNumber)
  }

  async #smsTo(phoneNumber: string): Promise<{ text: string }[]> {
    const response = await fetch(`${this.#origin}/dev/outbox?to=${encodeURIComponent(phoneNumber)}`)
    return (await response.json()) as { text: string }[]
  }

  async close(): Promise<void> {
    await this.#browser.close()
    for (const app of this.#apps) await app.close()
    await this.#ownService?.close()
    rmSync(this.#dataDir, { recursive: true, force: true })
  }

  #requireOwnService(): RunningService {
    if (this.#ownService === null) throw new Error('the test runs this service itself: stop and start it there')
    return this.#ownService
  }

  async #post(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(new URL(path, this.#origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body)
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${text}`)
    return text === '' ? null : (JSON.parse(text) as unknown)
  }
}

/** A conversation's entry in the list; its accessible name carries the unread count. */
export function conversation(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(name) })
}

/** What the connection indicator says right now. */
export async function connection(page: Page): Promise<string | undefined> {
  const indicator = page.getByRole('status').filter({ hasText: /Connected|Connecting…|Reconnecting…|Offline/ })
  return (await indicator.textContent())?.trim()
}

export async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill(text)
  await composer.press('Enter')
}

/** Each message must show exactly once: waits for it, then makes sure no copy follows. */
export async function expectShownOnce(page: Page, text: string): Promise<void> {
  const copies = page.getByRole('list', { name: 'Messages' }).getByText(text, { exact: true })
  await expect.poll(() => copies.count(), { timeout: 30_000 }).toBe(1)
  await page.waitForTimeout(750)
  expect(await copies.count()).toBe(1)
}
