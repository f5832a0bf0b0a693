// A full disk, against the real service and a real store: SQLite's own SQLITE_FULL, reached by
// capping how many pages the database may grow to (max_page_count, which fails a write exactly as
// a full disk does) since a test cannot fill a real disk. Messages keep coming to the page and
// going out, and the person is told once.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { launchAppOnDisk, signInThroughSms, testScope } from '../support/app-harness'
import { quietLog } from '../support/memory-platform'
import { OPEN_FAILED_NOTICE, WRITE_FAILED_NOTICE } from '../../src/main/core/store-keeper'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import type { LocalStores } from '../../src/main/core/ports'

const { cleanups, service: serviceFor } = testScope()

/** How many pages a new, empty store takes: the "disk" is made full a few pages past it. */
async function pagesOfAnEmptyStore(): Promise<number> {
  const directory = mkdtempSync(join(tmpdir(), 'parley-empty-store-'))
  try {
    const { store } = await new FileLocalStores({ directory, sealing: PLAIN_FILE, log: quietLog }).open('1')
    await store.close()
    return statSync(join(directory, '1.db')).size / 4096
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

interface Scene {
  service: TestService
  dataDir: string
  ada: TestUser
  bea: TestUser
  groupId: string
}

async function scene(): Promise<Scene> {
  const service = await serviceFor()
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-full-disk-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const ada = await service.signUp({ name: 'Ada' })
  const bea = await service.signUp({ name: 'Bea' })
  const groupId = String((await service.createGroup(ada, { name: 'Quarry' })).id)
  await service.addMember(ada, groupId, bea)
  for (let n = 1; n <= 5; n += 1) await service.sendGroupMessage(ada, groupId, `history ${n}`)
  return { service, dataDir, ada, bea, groupId }
}

/** Bea's burst, pushed to the app, and a message the app sends: every one reaches the page once. */
async function messagesStillFlow({ service, bea, groupId }: Scene, app: ReturnType<typeof launchAppOnDisk>): Promise<void> {
  await app.call('conversations:open', { conversationId: groupId })
  const burst = Array.from({ length: 30 }, (_, index) => `pushed ${index + 1} ${'so that pages fill up '.repeat(20)}`)
  for (const text of burst) await service.sendGroupMessage(bea, groupId, text)
  for (const text of burst) await app.events.waitFor('messages:received', (message) => message.text === text)
  await app.call('messages:send', { conversationId: groupId, text: 'sent with the disk full', clientId: 'disk-full-1' })
  await app.events.waitFor('messages:received', (message) => message.text === 'sent with the disk full')
  const received = app.events.all('messages:received').map((message) => message.text)
  for (const text of [...burst, 'sent with the disk full']) expect(received.filter((shown) => shown === text)).toHaveLength(1)
  expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn' })
}

describe('a full disk', () => {
  it('once the store can take no more, leaves the app working online and says so once', async () => {
    const scenery = await scene()
    const maxPages = (await pagesOfAnEmptyStore()) + 3
    const stores = new FileLocalStores({ directory: join(scenery.dataDir, 'store'), sealing: PLAIN_FILE, log: quietLog, maxPages })
    // The writes that fail, each one: SQLite's own SQLITE_FULL, nothing made up.
    const failures: unknown[] = []
    const app = launchAppOnDisk(scenery.service.origin, cleanups, scenery.dataDir, { stores: recordingFailures(stores, failures) })
    await signInThroughSms(app, scenery.service, scenery.ada)
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))

    await messagesStillFlow(scenery, app)
    expect(app.events.all('storage:notice')).toEqual([{ text: WRITE_FAILED_NOTICE }])
    expect(failures.length).toBeGreaterThan(1)
    for (const failure of failures) expect(failure).toMatchObject({ code: 'SQLITE_FULL' })
    await app.core.stop()

    // What was kept is whole: the store opens again, where there is room, with nothing set aside.
    const again = await new FileLocalStores({ directory: join(scenery.dataDir, 'store'), sealing: PLAIN_FILE, log: quietLog }).open(scenery.ada.id)
    expect(again.setAside).toBeNull()
    await again.store.close()
  })

  it('with no room even for a new store, leaves the app working online and says so once', async () => {
    const scenery = await scene()
    const stores = new FileLocalStores({ directory: join(scenery.dataDir, 'store'), sealing: PLAIN_FILE, log: quietLog, maxPages: 2 })
    const app = launchAppOnDisk(scenery.service.origin, cleanups, scenery.dataDir, { stores })
    await signInThroughSms(app, scenery.service, scenery.ada)
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))

    await messagesStillFlow(scenery, app)
    expect(app.events.all('storage:notice')).toEqual([{ text: OPEN_FAILED_NOTICE }])
  })
})

/** The same stores, each failure of a store they open noted on its way to the app. */
function recordingFailures(stores: LocalStores, failures: unknown[]): LocalStores {
  return {
    has: (accountId) => stores.has(accountId),
    remove: (accountId) => stores.remove(accountId),
    replaceDamaged: (accountId, damaged) => stores.replaceDamaged(accountId, damaged),
    open: async (accountId) => {
      const opened = await stores.open(accountId)
      const store = new Proxy(opened.store, {
        get(target, property) {
          const value = Reflect.get(target, property) as unknown
          if (typeof value !== 'function') return value
          return (...args: unknown[]) =>
            (value as (...given: unknown[]) => Promise<unknown>).apply(target, args).catch((error: unknown) => {
              failures.push(error)
              throw error
            })
        }
      })
      return { ...opened, store }
    }
  }
}
