// A device that keeps a local store, against the real service: Ada with a group and some history
// in it, a private data folder of her app's own, and a relay in front of the service that a test
// cuts (or silences) to take the service away. The local store's tests start from here.
import Sqlite from 'better-sqlite3-multiple-ciphers'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestService, TestUser } from '../../server/test/support'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { dataDirStores } from '../../src/main/storage/data-dir-stores'
import type { PendingMessage } from '@shared/messages'
import { launchAppOnDisk, signInThroughSms, type AppHarness, type TestScope } from './app-harness'
import { quietLog } from './memory-platform'
import { startTcpProxy, type TcpProxy } from './tcp-proxy'

export interface KeptDevice {
  service: TestService
  /** The app reaches the service through it. */
  proxy: TcpProxy
  dataDir: string
  ada: TestUser
  groupId: string
  /** The service's database file, when it was asked to keep one; null: it keeps its data in memory. */
  serviceDb: string | null
}

/**
 * Ada, her group `Quarry` with `history` written in it by her, and an empty data folder, removed
 * after the test. `serviceOnFile`: the service keeps its database in a file there, which a test may
 * reach into (see `removeFromService`).
 */
export async function keptDevice(scope: TestScope, history: readonly string[], options: { serviceOnFile?: boolean } = {}): Promise<KeptDevice> {
  const dataDir = privateDir(scope, 'parley-kept-device-')
  const serviceDb = options.serviceOnFile === true ? join(privateDir(scope, 'parley-kept-service-'), 'service.db') : null
  const service = await scope.service(serviceDb === null ? {} : { db: serviceDb })
  const proxy = await startTcpProxy(service.origin)
  scope.cleanups.push(() => proxy.close())
  const ada = await service.signUp({ name: 'Ada' })
  const groupId = String((await service.createGroup(ada, { name: 'Quarry' })).id)
  for (const text of history) await service.sendGroupMessage(ada, groupId, text)
  return { service, proxy, dataDir, ada, groupId, serviceDb }
}

/**
 * Removes a message from the service altogether, tombstone and all, as a remote deployment's
 * retention may: no operation of the service does that, so the test reaches into its database.
 */
export function removeFromService({ serviceDb }: KeptDevice, messageId: string): void {
  if (serviceDb === null) throw new Error('the service keeps no database file: start the device with serviceOnFile')
  const db = new Sqlite(serviceDb)
  try {
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 2000')
    const removed = db.prepare('DELETE FROM messages WHERE id = ?').run(messageId)
    if (removed.changes !== 1) throw new Error(`the service holds no message ${messageId}`)
  } finally {
    db.close()
  }
}

/** An empty folder of the test's own, removed after it. */
function privateDir(scope: TestScope, prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  scope.cleanups.push(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** `history 1` … `history <count>`. */
export function numberedHistory(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `history ${index + 1}`)
}

/** An app on the device's data folder, through the relay, not started yet. */
export function launchOnDevice(scope: TestScope, { proxy, dataDir }: KeptDevice): AppHarness<TokenVault, Preferences> {
  return launchAppOnDisk(proxy.origin, scope.cleanups, dataDir)
}

/** An app on the device, Ada signed in, with her group in its list. */
export async function signedInOnDevice(scope: TestScope, device: KeptDevice): Promise<AppHarness<TokenVault, Preferences>> {
  const app = launchOnDevice(scope, device)
  await signInThroughSms(app, device.service, device.ada)
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === device.groupId))
  return app
}

/** Opens the conversation and pages back to its very start, as scrolling up would: every text, oldest first. */
export async function readWholeHistory(app: AppHarness<TokenVault, Preferences>, groupId: string): Promise<string[]> {
  const opened = await app.call('conversations:open', { conversationId: groupId })
  const texts = opened.messages.map((message) => message.text)
  let oldest = opened.messages[0]?.id
  let hasOlder = opened.hasOlder
  while (hasOlder && oldest !== undefined) {
    const page = await app.call('messages:loadOlder', { conversationId: groupId, beforeId: oldest })
    texts.unshift(...page.messages.map((message) => message.text))
    oldest = page.messages[0]?.id
    hasOlder = page.hasOlder
  }
  return texts
}

/** An account's outbox as its store keeps it, read with no app running on the data folder. */
export async function keptOutbox(dataDir: string, accountId: string): Promise<PendingMessage[]> {
  const { store } = await dataDirStores(dataDir, quietLog).stores.open(accountId)
  try {
    return await store.outbox()
  } finally {
    await store.close()
  }
}
