// What the parts share: the service and the browser of the run, and one user's app (its own
// process, its own browser context with the page probe) opened and signed in.
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { DemoAccount } from '../../server/src/index'
import type { ServiceProcess } from '../../tests/support/service-process'
import { connection } from '../../tests/e2e/support'
import { PAGE_PROBE } from './page-probe'
import { startAppProcess, type AppProcess, type BuiltApp } from './processes'
import type { ServiceClient } from './service-client'

export interface Run {
  service: ServiceProcess
  client: ServiceClient
  browser: Browser
  /** Each user's data directory lives under it. */
  dataRoot: string
  /** The built host, renderer and probe each app process runs. */
  app: BuiltApp
  /** Uncaught errors in any page. */
  pageErrors: Error[]
  /** Ada's app has signed in on her data directory (`cold-start.ts`), after the seeding. */
  adaSignedIn: boolean
}

export interface OpenedApp {
  app: AppProcess
  context: BrowserContext
  page: Page
  close(): Promise<void>
}

/** Starts a user's app process on `dataDir` (with the service at `origin`) and opens it in a browser context of its own. */
export async function openApp(run: Run, dataDir: string, origin = run.service.origin): Promise<OpenedApp> {
  const app = await startAppProcess(join(run.dataRoot, dataDir), origin, run.app)
  const context = await run.browser.newContext()
  await context.addInitScript({ content: PAGE_PROBE })
  const page = await context.newPage()
  page.on('pageerror', (error) => run.pageErrors.push(error))
  await page.goto(app.url)
  return {
    app,
    context,
    page,
    async close() {
      await context.close()
      await app.stop()
    }
  }
}

/** Opens a user's app and signs it in through its screens, then waits until its push is connected. */
export async function openSignedIn(run: Run, dataDir: string, who: DemoAccount, origin = run.service.origin): Promise<OpenedApp> {
  const opened = await openApp(run, dataDir, origin)
  await run.client.signIn(opened.page, who)
  await waitUntil(async () => (await connection(opened.page)) === 'Connected', 30_000, 'the push connection to come up')
  return opened
}

export async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
