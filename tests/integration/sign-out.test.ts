// Signing out against the real service and real files: the user's sign-out takes this device's copy
// of the account with it (stored messages and the key that reads them), a session that merely ends
// keeps it, and messages still waiting to be sent go only with the user's say-so.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { keptDevice, keptOutbox, numberedHistory, signedInOnDevice, type KeptDevice } from '../support/kept-device'
import type { Preferences, TokenVault } from '../../src/main/core/ports'

const scope = testScope()
const { cleanups } = scope

interface Scene extends KeptDevice {
  app: AppHarness<TokenVault, Preferences>
}

/** Ada signed in on a device that has kept her group's history. */
async function signedInWithHistory(): Promise<Scene> {
  const device = await keptDevice(scope, numberedHistory(5))
  const app = await signedInOnDevice(scope, device)
  await app.call('conversations:open', { conversationId: device.groupId })
  return { ...device, app }
}

/** The files under the data directory's store/ that belong to the account. */
function storeFilesOf({ dataDir, ada }: Scene): string[] {
  const directory = join(dataDir, 'store')
  return existsSync(directory) ? readdirSync(directory).filter((name) => name.startsWith(`${ada.id}.`)) : []
}

describe('signing out', () => {
  it('removes the account\'s stored messages and key from this device', async () => {
    const scene = await signedInWithHistory()
    // The store opens in a thread of its own, beside the sign-in.
    await expect.poll(() => storeFilesOf(scene)).toEqual(expect.arrayContaining([`${scene.ada.id}.db`, `${scene.ada.id}.key`]))

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
    // Listed once the store, opening in a thread of its own beside the sign-in, has shown what it kept.
    await again.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scene.groupId))
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
    expect((await keptOutbox(scene.dataDir, scene.ada.id)).map((message) => message.text)).toEqual(['written offline 1', 'written offline 2'])
    expect(storeFilesOf(scene)).toContain(`${scene.ada.id}.db`)

    expect(await scene.app.call('session:signOut', { discardUnsent: true })).toEqual({ status: 'signedOut' })
    expect(await scene.app.call('session:get', {})).toEqual({ status: 'signedOut', notice: null })
    // Gone with the store, and never moved to where an older version kept them in plain text.
    expect(storeFilesOf(scene)).toEqual([])
    expect(scene.app.preferences.get('outbox')).toBeUndefined()
    expect(scene.app.events.all('outbox:changed').at(-1)).toEqual({ conversationId: scene.groupId, pending: [] })
  })
})
