// Offline against the real service and real files: a start with the service refusing connections,
// or not answering at all, is signed in from the store and says it is offline (the header's
// `Offline`), what is written then waits, and it all goes out once, in order, when the service is back.
import { describe, expect, it } from 'vitest'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { launchAppOnDisk, testScope, type AppHarness } from '../support/app-harness'
import { keptDevice, signedInOnDevice, type KeptDevice } from '../support/kept-device'

const scope = testScope()
const { cleanups } = scope

type App = AppHarness<TokenVault, Preferences>

type Scene = KeptDevice

/** Ada, a group with a little history, and a first run that read it before stopping. */
async function keptScene(): Promise<Scene> {
  const device = await keptDevice(scope, ['kept 1', 'kept 2'])
  const first = await signedInOnDevice(scope, device)
  await first.call('conversations:open', { conversationId: device.groupId })
  await first.core.stop()
  return device
}

async function startAgain({ proxy, dataDir }: Scene): Promise<App> {
  const app = launchAppOnDisk(proxy.origin, cleanups, dataDir)
  await app.core.start()
  return app
}

function offlineSaid(app: App): boolean | undefined {
  return app.events.all('connection:offline').at(-1)?.offline
}

describe('offline', () => {
  it('says so at once when the service refuses the connection, shows what is kept, and sends what was written once, in order, when it is back', async () => {
    const scene = await keptScene()
    scene.proxy.cut()
    const app = await startAgain(scene)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: scene.ada.id } })
    await app.events.waitFor('connection:offline', (state) => state.offline)
    expect(app.events.all('push:status').at(-1)).not.toBe('connected')
    expect(await app.call('conversations:list', {})).toEqual([expect.objectContaining({ id: scene.groupId })])
    const opened = await app.call('conversations:open', { conversationId: scene.groupId })
    expect(opened.messages.map((message) => message.text)).toEqual(['kept 1', 'kept 2'])

    for (const n of [1, 2]) {
      await app.call('messages:send', { conversationId: scene.groupId, text: `written offline ${n}`, clientId: `offline-${n}` })
    }
    await expect
      .poll(() => app.events.all('outbox:changed').at(-1)?.pending.map((message) => [message.clientId, message.state]))
      .toEqual([
        ['offline-1', 'failed'],
        ['offline-2', 'failed']
      ])
    // A page that (re)loads now is told too.
    const toldBefore = app.events.all('connection:offline').length
    await app.call('app:ready', {})
    expect(app.events.all('connection:offline').slice(toldBefore)).toEqual([{ offline: true }])

    scene.proxy.restore()
    await app.events.waitFor('push:status', (status) => status === 'connected', 45_000)
    expect(offlineSaid(app)).toBe(false)
    await expect.poll(() => app.events.all('outbox:changed').at(-1)?.pending.length, { timeout: 30_000 }).toBe(0)
    const stored = await scene.service.call('GET', `/v3/groups/${scene.groupId}/messages`, { token: scene.ada.token, query: { limit: '10' } })
    const texts = (stored.body.response.messages as { text: string }[]).map((message) => message.text).reverse()
    expect(texts).toEqual(['kept 1', 'kept 2', 'written offline 1', 'written offline 2'])
  })

  it('opens a conversation with more unread than a page from what is kept, its "New messages" mark where the user left off, while the service does not answer', async () => {
    const device = await keptDevice(scope, ['kept 1', 'kept 2'])
    const bea = await device.service.signUp({ name: 'Bea' })
    await device.service.addMember(device.ada, device.groupId, bea)
    const first = await signedInOnDevice(scope, device)
    await first.call('conversations:open', { conversationId: device.groupId })
    await first.call('conversations:close', { conversationId: device.groupId })
    await first.core.stop()
    // While the app is away, more is written than one page shows.
    const written: string[] = []
    for (let n = 1; n <= 70; n++) written.push(String((await device.service.sendGroupMessage(bea, device.groupId, `while away ${n}`)).id))

    // The next run catches it all up into the store, and stops before Ada looks.
    const second = await startAgain(device)
    // The two kept, the service's note that Bea was added, and the seventy.
    await expect.poll(async () => (await second.call('storage:get', {})).usage?.messages, { timeout: 20_000 }).toBe(73)
    await second.core.stop()

    device.proxy.silence()
    const app = await startAgain(device)
    const opened = await app.call('conversations:open', { conversationId: device.groupId })
    expect(opened.messages.at(-1)?.text).toBe('while away 70')
    expect(opened.messages[0]?.text).not.toBe('while away 1')
    expect(opened.firstUnreadId).toBe(written[0])
  })

  it('says so after a few seconds when the service does not answer at all, and no longer once it does', async () => {
    const scene = await keptScene()
    scene.proxy.silence()
    const app = await startAgain(scene)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: scene.ada.id } })
    expect(offlineSaid(app)).toBeUndefined()
    await app.events.waitFor('connection:offline', (state) => state.offline, 12_000)
    expect(app.events.all('push:status').at(-1)).toBe('connecting')
    expect((await app.call('conversations:open', { conversationId: scene.groupId })).messages.map((message) => message.text)).toEqual(['kept 1', 'kept 2'])

    scene.proxy.restore()
    await app.events.waitFor('push:status', (status) => status === 'connected', 60_000)
    expect(offlineSaid(app)).toBe(false)
  })
})
