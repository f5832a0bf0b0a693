// The whole app, as two people use it: two browser-mode apps (each its own core and data folder)
// in Chromium, against the real local service on a file database that is stopped and restarted
// mid-conversation.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type DemoAccount, type RunningService } from '../../server/src/index'
import { localServiceConfig } from '../../src/main/api/service-config'
import { startBrowserApp, type BrowserApp } from '../../src/main/browser/app'
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
const GROUP = 'Weekend Hikers'
const OTHER_GROUP = 'Launch Team'

let dataDir: string
let databasePath: string
let service: RunningService
/** Kept from the first start: a restart on the same database does not seed again. */
let demoAccounts: DemoAccount[]
let browser: Browser
const apps: BrowserApp[] = []
/** Uncaught errors in either page: the app must never throw at its user. */
const pageErrors: Error[] = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'))
  databasePath = join(dataDir, 'service.db')
  service = await startService({ port: 0, dev: true, db: databasePath, seed: 'demo' })
  demoAccounts = service.demoAccounts
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
})

afterAll(async () => {
  await browser?.close()
  for (const app of apps) await app.close()
  await service?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function openApp(name: string): Promise<Page> {
  const app = await startBrowserApp({
    dataDir: join(dataDir, name),
    rendererDir: resolve('out/renderer'),
    config: localServiceConfig(service.origin),
    log: quietLog,
    openExternal: async () => undefined
  })
  apps.push(app)
  const context = await browser.newContext()
  const page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(error))
  await page.goto(app.url)
  return page
}

function account(name: string): DemoAccount {
  const found = demoAccounts.find((candidate) => candidate.name.startsWith(name))
  if (!found) throw new Error(`no demo account ${name}`)
  return found
}

async function lastSmsCode(phoneNumber: string): Promise<string> {
  const response = await fetch(`${service.origin}/dev/outbox?to=${encodeURIComponent(phoneNumber)}`)
  const outbox = (await response.json()) as { text: string }[]
  const code = outbox.at(-1)?.text.match(/\d{6}/)?.[0]
  if (code === undefined) throw new Error(`no code was sent to ${phoneNumber}`)
  return code
}

async function signIn(page: Page, who: DemoAccount): Promise<void> {
  await page.getByRole('textbox', { name: 'Username' }).fill(who.email)
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect.poll(() => lastSmsCode(who.phoneNumber).catch(() => null)).not.toBeNull()
  await page.getByRole('textbox', { name: 'Verification code' }).fill(await lastSmsCode(who.phoneNumber))
  await page.getByRole('button', { name: 'Verify' }).click()
  await conversation(page, GROUP).waitFor()
}

function conversation(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(name) })
}

/** What the connection indicator says right now. */
async function connection(page: Page): Promise<string | undefined> {
  const indicator = page.getByRole('status').filter({ hasText: /Connected|Connecting…|Reconnecting…|Offline/ })
  return (await indicator.textContent())?.trim()
}

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill(text)
  await composer.press('Enter')
}

/** Each message must show exactly once: waits for it, then makes sure no copy follows. */
async function expectShownOnce(page: Page, text: string): Promise<void> {
  const copies = page.getByRole('list', { name: 'Messages' }).getByText(text, { exact: true })
  await expect.poll(() => copies.count(), { timeout: 30_000 }).toBe(1)
  await page.waitForTimeout(750)
  expect(await copies.count()).toBe(1)
}

async function storedTexts(groupName: string, who: DemoAccount): Promise<string[]> {
  // Read back through the service's own REST interface, as any client would.
  const login = await fetch(`${service.origin}/v2/access_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ app_id: 'e2e-check', grant_type: 'password', username: who.email, password: who.password, device_id: '' })
  })
  const code = ((await login.json()) as { verification: { code: string } }).verification.code
  await fetch(`${service.origin}/v3/verifications/${code}/initiate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ verification: { method: 'sms' } })
  })
  await fetch(`${service.origin}/v3/verifications/${code}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ verification: { pin: await lastSmsCode(who.phoneNumber) } })
  })
  const granted = await fetch(`${service.origin}/v2/access_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ app_id: 'e2e-check', grant_type: 'password', username: who.email, password: who.password, verification: { code } })
  })
  const token = ((await granted.json()) as { access_token: string }).access_token
  const groups = (await (await fetch(`${service.origin}/v3/groups?per_page=100&token=${token}`)).json()) as {
    response: { id: string; name: string }[]
  }
  const group = groups.response.find((candidate) => candidate.name === groupName)
  const page = (await (await fetch(`${service.origin}/v3/groups/${group?.id}/messages?limit=100&token=${token}`)).json()) as {
    response: { messages: { text: string }[] }
  }
  return page.response.messages.map((message) => message.text)
}

describe('two people chatting', () => {
  let ada: Page
  let grace: Page

  it('signs both in through the SMS code', async () => {
    ada = await openApp('ada')
    grace = await openApp('grace')
    await signIn(ada, account('Ada'))
    await signIn(grace, account('Grace'))
    await expect.poll(() => connection(ada)).toBe('Connected')
    await expect.poll(() => connection(grace)).toBe('Connected')
  })

  it('delivers a message live and counts it unread for the other person', async () => {
    await conversation(grace, OTHER_GROUP).click()
    await expect.poll(() => conversation(grace, GROUP).getAttribute('aria-current')).toBeNull()
    expect(await conversation(grace, GROUP).textContent()).not.toMatch(/unread/)

    await conversation(ada, GROUP).click()
    await send(ada, 'Who is up for the ridge trail on Saturday?')
    await expectShownOnce(ada, 'Who is up for the ridge trail on Saturday?')

    await expect.poll(() => conversation(grace, GROUP).textContent()).toMatch(/1 unread/)
    await conversation(grace, GROUP).click()
    await expectShownOnce(grace, 'Who is up for the ridge trail on Saturday?')
    await expect.poll(() => conversation(grace, GROUP).textContent()).not.toMatch(/unread/)
  })

  it('keeps the conversation whole across a service restart: nothing lost, nothing twice', async () => {
    const port = Number(new URL(service.origin).port)
    await service.close()
    await expect.poll(() => connection(ada), { timeout: 30_000 }).not.toBe('Connected')

    await send(ada, 'Typed while the service was down')
    await expect
      .poll(() => ada.getByRole('list', { name: 'Messages' }).getByText(/out of reach/).count(), { timeout: 30_000 })
      .toBeGreaterThan(0)

    service = await startService({ port, dev: true, db: databasePath })
    // Sent at once: it usually reaches Ada's app before her push connection has subscribed again,
    // so only the catch-up over REST can bring it; either way it must show exactly once.
    await send(grace, 'Right after the restart')
    await expect.poll(() => connection(ada), { timeout: 60_000 }).toBe('Connected')
    await send(grace, 'And once you are back')

    for (const text of ['Typed while the service was down', 'Right after the restart', 'And once you are back']) {
      await expectShownOnce(ada, text)
      await expectShownOnce(grace, text)
    }
    const stored = await storedTexts(GROUP, account('Katherine'))
    for (const text of ['Typed while the service was down', 'Right after the restart', 'And once you are back']) {
      expect(stored.filter((candidate) => candidate === text)).toHaveLength(1)
    }
    expect(pageErrors).toEqual([])
  })
})
