// What every end-to-end test sets up the same way: the real local service on a file database with
// the demo accounts, Chromium, and one browser-mode app (its own core and data folder) per person,
// each in a browser context of its own, signed in through the SMS code as a person would.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { startService, type DemoAccount, type RunningService } from '../../server/src/index'
import { localServiceConfig, type ServiceConfig } from '../../src/main/api/service-config'
import { startBrowserApp, type BrowserApp } from '../../src/main/browser/app'
import { TOKEN_FILE_NAME } from '../../src/main/storage/file-token-vault'
import { decodeKeptToken } from '../../src/main/storage/kept-token'
import type { Log } from '../../src/main/log/log'
import { quietLog } from '../support/memory-platform'
import { ServiceRest } from '../support/service-rest'

/** How Chromium runs for end-to-end tests and benchmarks: headless on a machine without a GPU, and quiet. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // Chromium's own address bar: since version 156 every new context (a window, headless too) loads
  // its popups as two web pages of the browser's UI, chrome://omnibox-popup.top-chrome/ and its
  // AI-mode sibling, in a renderer of their own: a few hundred milliseconds of CPU that, on two
  // cores, run beside the page under test while it starts. Names Chromium does not know are ignored.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'
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
  /** The service settings of this start, instead of the test's service: a start pointed elsewhere. */
  config?: ServiceConfig
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
  readonly #rest: ServiceRest
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
    this.#rest = new ServiceRest(service.origin, { appId: 'e2e-check' })
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
      config: options.config ?? localServiceConfig(this.#appOrigin),
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
    await signInThroughScreens(page, who, this.#rest)
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
  restToken(who: DemoAccount, deviceId: string): Promise<string> {
    return this.#rest.restToken(who, deviceId)
  }

  /** A GET on the service with a token, its JSON answer as `T` (checked by the caller's asserts). */
  get<T>(path: string, token: string): Promise<T> {
    return this.#rest.get<T>(path, token)
  }

  /** MS2 as the token's user, under `sourceGuid`; throws unless the service stored it (201). */
  sendGroupMessage(token: string, groupId: string, text: string, sourceGuid: string): Promise<void> {
    return this.#rest.sendGroupMessage(token, groupId, text, sourceGuid)
  }

  /** Moves the service's clock forward (§17), so every expiry on the service follows. */
  async advanceServiceClock(seconds: number): Promise<void> {
    await this.#rest.post('/dev/clock', { advance_seconds: seconds })
  }

  lastSmsCode(phoneNumber: string): Promise<string> {
    return this.#rest.lastSmsCode(phoneNumber)
  }

  smsCount(phoneNumber: string): Promise<number> {
    return this.#rest.smsCount(phoneNumber)
  }

  nextSmsCode(phoneNumber: string, sentBefore: number, timeoutMs?: number): Promise<string> {
    return this.#rest.nextSmsCode(phoneNumber, sentBefore, timeoutMs)
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

}

/** The access token an app keeps in its data folder, read as its vault reads it. */
export function keptToken(dataDir: string): string {
  const kept = decodeKeptToken(readFileSync(join(dataDir, TOKEN_FILE_NAME), 'utf8'))
  if (kept === null) throw new Error(`${dataDir} keeps no token`)
  return kept.token
}

/**
 * Signs in through the app's own screens as a person would, with the code of the text the service
 * sends for this sign-in (never an older one).
 */
export async function signInThroughScreens(page: Page, who: DemoAccount, rest: ServiceRest): Promise<void> {
  await page.getByRole('textbox', { name: 'Username' }).fill(who.email)
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const sentBefore = await rest.smsCount(who.phoneNumber)
  await page.getByRole('button', { name: 'Send code' }).click()
  await page.getByRole('textbox', { name: 'Verification code' }).fill(await rest.nextSmsCode(who.phoneNumber, sentBefore))
  await page.getByRole('button', { name: 'Verify' }).click()
  await conversation(page, FIRST_GROUP).waitFor()
}

/** A conversation's entry in the list; its accessible name carries the unread count. */
export function conversation(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(name) })
}

/** The open conversation's history: its list of messages. */
export function history(page: Page): Locator {
  return page.getByRole('list', { name: 'Messages' })
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
  const copies = history(page).getByText(text, { exact: true })
  await expect.poll(() => copies.count(), { timeout: 30_000 }).toBe(1)
  await page.waitForTimeout(750)
  expect(await copies.count()).toBe(1)
}
