// Signing out against the real service and real files: the user's sign-out takes this device's copy
// of the account with it (stored messages and the key that reads them), a session that merely ends
// keeps it, and messages still waiting to be sent go only with the user's say-so.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { dataDirStores } from '../../src/main/storage/data-dir-stores'
import { quietLog } from '../support/memory-platform'
import type { PendingMessage } from '@shared/messages'

const { cleanups, service: serviceFor } = testScope()

interface Scene {
  service: TestService
  proxy: TcpProxy
  dataDir: string
  ada: TestUser
  groupId: string
  app: AppHarness<TokenVault, Preferences>
}

/** Ada signed in on a device that has kept her group's history. */
async function signedInWithHistory(): Promise<Scene> {
  const service = await serviceFor()
  const proxy = await startTcpProxy(service.origin)
  cleanups.push(() => proxy.close())
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-sign-out-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const ada = await service.signUp({ name: 'Ada' })
  const groupId = String((await service.createGroup(ada, { name: 'Quarry' })).id)
  for (let n = 1; n <= 5; n += 1) await service.sendGroupMessage(ada, groupId, `history ${n}`)
  const app = launchAppOnDisk(proxy.origin, cleanups, dataDir)
  await signInThroughSms(app, service, ada)
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
  await app.call('conversations:open', { conversationId: groupId })
  return { service, proxy, dataDir, ada, groupId, app }
}

/** The files under the data directory's store/ that belong to the account. */
function storeFilesOf({ dataDir, ada }: Scene): string[] {
  const directory = join(dataDir, 'store')
  return existsSync(directory) ? readdirSync(directory).filter((name) => name.startsWith(`${ada.id}.`)) : []
}

/**
 * Ada's outbox as her store keeps it on disk, read through a connection of its own beside the
 * running app's (the store is written with WAL, so a reader sees every committed write).
 */
async function keptOutbox({ dataDir, ada }: Scene): Promise<PendingMessage[]> {
  const { store } = await dataDirStores(dataDir, quietLog).stores.open(ada.id)
  try {
    return await store.outbox()
  } finally {
    await store.close()
  }
}

describe('signing out', () => {
  it('removes the account\'s stored messages and key from this device', async () => {
    const scene = await signedInWithHistory()
    expect(storeFilesOf(scene)).toEqual(expect.arrayContaining([`${scene.ada.id}.db`, `${scene.ada.id}.key`]))

    expect(await scene.app.call('session:signOut', {})).toEqual({ status: 'signedOut' })
    expect(await scene.app.call('session:get', {})).toEqual({ status: 'signedOut', notice: null })
    expect(storeFilesOf(scene)).toEqual([])
  })

  it('keeps them when the session merely ends (the service refused the token)', async () => {
    const scene = await signedInWithHistory()
    const token = (await scene.app.vault.load())?.token ?? ''
    expect((await scene.service.call('POST', '/v2/access_tokens/current/destroy', { token })).status).toBe(200)

    // The next request the app makes is refused.
    await scene.app.call('conversations:open', { conversationId: scene.groupId }).catch(() => undefined)
    await scene.app.events.waitFor('session:changed', (state) => state.status === 'signedOut')
    await scene.app.core.stop()
    expect(storeFilesOf(scene)).toEqual(expect.arrayContaining([`${scene.ada.id}.db`, `${scene.ada.id}.key`]))

    // Signed in again, the device shows what it kept before the service answers.
    const again = launchAppOnDisk(scene.proxy.origin, cleanups, scene.dataDir)
    await signInThroughSms(again, scene.service, scene.ada)
    scene.proxy.cut()
    const { messages } = await again.call('conversations:open', { conversationId: scene.groupId })
    expect(messages.map((message) => message.text)).toEqual(['history 1', 'history 2', 'history 3', 'history 4', 'history 5'])
  })

  it('refuses while messages wait unsent, saying how many, and signs out discarding them only when told to', async () => {
    const scene = await signedInWithHistory()
    scene.proxy.cut()
    for (const n of [1, 2]) {
      await scene.app.call('messages:send', { conversationId: scene.groupId, text: `written offline ${n}`, clientId: `offline-${n}` })
    }
    await scene.app.events.waitFor('outbox:changed', ({ pending }) => pending.length === 2 && pending.every((message) => message.state === 'failed'))

    expect(await scene.app.call('session:signOut', {})).toEqual({ status: 'unsentMessages', count: 2 })
    expect(await scene.app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: scene.ada.id } })
    expect((await keptOutbox(scene)).map((message) => message.text)).toEqual(['written offline 1', 'written offline 2'])
    expect(storeFilesOf(scene)).toContain(`${scene.ada.id}.db`)

    expect(await scene.app.call('session:signOut', { discardUnsent: true })).toEqual({ status: 'signedOut' })
    expect(await scene.app.call('session:get', {})).toEqual({ status: 'signedOut', notice: null })
    // Gone with the store, and never moved to where an older version kept them in plain text.
    expect(storeFilesOf(scene)).toEqual([])
    expect(scene.app.preferences.get('outbox')).toBeUndefined()
    expect(scene.app.events.all('outbox:changed').at(-1)).toEqual({ conversationId: scene.groupId, pending: [] })
  })
})
