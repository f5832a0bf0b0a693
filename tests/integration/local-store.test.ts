// The local store against the real service and real files: what the app learns reaches the store
// through the message flow, a start with the service out of reach shows it, and nothing of it can
// be read off the disk.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestUser } from '../../server/test/support'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { keptDevice, keptOutbox, launchOnDevice, numberedHistory, readWholeHistory, signedInOnDevice, type KeptDevice } from '../support/kept-device'
import type { LocalStores, Preferences, TokenVault } from '../../src/main/core/ports'
import { OPEN_FAILED_NOTICE } from '../../src/main/core/store-keeper'
import { KEPT_FIRST_MS } from '../../src/main/core/service-hold'
import { dataDirStores } from '../../src/main/storage/data-dir-stores'
import { quietLog } from '../support/memory-platform'
import type { PendingMessage } from '@shared/messages'

const scope = testScope()
const { cleanups } = scope

/** More than two pages (the app reads 50 at a time), so older pages come from the store too. */
const HISTORY_LENGTH = 120
const everyMessage = numberedHistory(HISTORY_LENGTH)

type Scene = KeptDevice

const scene = (): Promise<Scene> => keptDevice(scope, everyMessage)

function launch(scenery: Scene): AppHarness<TokenVault, Preferences> {
  return launchOnDevice(scope, scenery)
}

/** Starts the app again on what the last run kept, and waits for the list it shows first. */
async function restart(scenery: Scene): Promise<AppHarness<TokenVault, Preferences>> {
  const app = launch(scenery)
  await app.core.start()
  expect(app.events.all('session:changed').at(-1)).toMatchObject({ status: 'signedIn', me: { id: scenery.ada.id } })
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))
  return app
}

/** The texts of the next catch-up the app reads of the conversation. */
function nextCatchUp(app: AppHarness<TokenVault, Preferences>, conversationId: string): Promise<string[]> {
  return new Promise((resolve) => {
    const stop = app.core.messages.on('paged', (page) => {
      if (page.end !== 'newer' || page.conversationId !== conversationId) return
      stop()
      resolve(page.messages.map((message) => message.text))
    })
  })
}

/** A scene whose group Bea is in too, that Ada's app signed in, opened and closed: the text of the newest message it kept. */
async function groupKeptWithBea(): Promise<{ scenery: Scene; bea: TestUser; kept: string | undefined }> {
  const scenery = await scene()
  const bea = await scenery.service.signUp({ name: 'Bea' })
  await scenery.service.addMember(scenery.ada, scenery.groupId, bea)
  const first = await signedInOnDevice(scope, scenery)
  const kept = (await first.call('conversations:open', { conversationId: scenery.groupId })).messages.at(-1)?.text
  await first.core.stop()
  return { scenery, bea, kept }
}

/** Ada sends `sent` into the scene's group and Bea writes `pushed` there; each has reached Ada's app. */
async function sendAndReceive(app: AppHarness<TokenVault, Preferences>, scenery: Scene, bea: TestUser, sent: string, pushed: string): Promise<void> {
  await app.call('messages:send', { conversationId: scenery.groupId, text: sent, clientId: `client ${sent}` })
  await app.events.waitFor('messages:received', (message) => message.text === sent)
  await scenery.service.sendGroupMessage(bea, scenery.groupId, pushed)
  await app.events.waitFor('messages:received', (message) => message.text === pushed)
}

/** The texts of the group's newest `count` messages as a restart shows them with the service cut off. */
async function newestOffline(scenery: Scene, count: number): Promise<string[]> {
  scenery.proxy.cut()
  const offline = await restart(scenery)
  const { messages } = await offline.call('conversations:open', { conversationId: scenery.groupId })
  return messages.slice(-count).map((message) => message.text)
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .map((name) => join(directory, name))
    .filter((path) => statSync(path).isFile())
}


describe('the local store', () => {
  it('starts signed in with the service out of reach, listing the kept conversations and opening their whole history', async () => {
    const scenery = await scene()
    const first = await signedInOnDevice(scope, scenery)
    expect(await readWholeHistory(first, scenery.groupId)).toEqual(everyMessage)
    await first.core.stop()

    scenery.proxy.cut()
    const offline = await restart(scenery)
    expect(await offline.call('conversations:list', {})).toEqual([expect.objectContaining({ id: scenery.groupId, name: 'Quarry' })])
    expect(await readWholeHistory(offline, scenery.groupId)).toEqual(everyMessage)
  })

  it('keeps pushed messages in the history it shows the next time, with nothing doubled', async () => {
    const scenery = await scene()
    const first = launch(scenery)
    await signInThroughSms(first, scenery.service, scenery.ada)
    // Only what was read is kept: older history stays the service's to give.
    await first.call('storage:keepFullHistory', { on: false })
    await first.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))
    await first.call('conversations:open', { conversationId: scenery.groupId })
    const bea = await scenery.service.signUp({ name: 'Bea' })
    await scenery.service.call('POST', `/v3/groups/${scenery.groupId}/members/add`, {
      token: scenery.ada.token,
      attest: true,
      body: { members: [{ user_id: bea.id, nickname: 'Bea' }] }
    })
    await scenery.service.sendGroupMessage(bea, scenery.groupId, 'pushed while open')
    await first.events.waitFor('messages:received', (message) => message.text === 'pushed while open')
    await first.core.stop()

    scenery.proxy.cut()
    const offline = await restart(scenery)
    const { messages, hasOlder } = await offline.call('conversations:open', { conversationId: scenery.groupId })
    const texts = messages.map((message) => message.text)
    expect(texts.at(-1)).toBe('pushed while open')
    expect(texts).toContain('history 120')
    expect(new Set(texts).size).toBe(texts.length)
    // Only the newest page was ever read: what is older is the service's, and says so offline.
    expect(hasOlder).toBe(true)
    await expect(readWholeHistory(offline, scenery.groupId)).rejects.toMatchObject({ code: 'NETWORK' })
  })

  it('brings a history opened from the store up to date from the service, once', async () => {
    const scenery = await scene()
    const first = await signedInOnDevice(scope, scenery)
    await first.call('conversations:open', { conversationId: scenery.groupId })
    await first.core.stop()
    await scenery.service.sendGroupMessage(scenery.ada, scenery.groupId, 'written elsewhere while the app was closed')

    const again = await restart(scenery)
    const opened = await again.call('conversations:open', { conversationId: scenery.groupId })
    expect(opened.messages.at(-1)?.text).toBe('history 120')
    await again.events.waitFor('messages:received', (message) => message.text === 'written elsewhere while the app was closed')
    await again.core.stop()

    expect(await newestOffline(scenery, 2)).toEqual(['history 120', 'written elsewhere while the app was closed'])
  })

  it('keeps what is sent and pushed into a history opened from the store, already up to date, in the history it shows next', async () => {
    const { scenery, bea, kept } = await groupKeptWithBea()

    const again = await restart(scenery)
    await again.events.waitFor('push:status', (status) => status === 'connected')
    const caughtUp = nextCatchUp(again, scenery.groupId)
    expect((await again.call('conversations:open', { conversationId: scenery.groupId })).messages.at(-1)?.text).toBe(kept)
    // Nothing newer on the service: what comes next follows what the store showed.
    expect(await caughtUp).toEqual([])
    await sendAndReceive(again, scenery, bea, 'sent after the restart', 'pushed after the restart')
    await again.core.stop()

    expect(await newestOffline(scenery, 3)).toEqual([kept, 'sent after the restart', 'pushed after the restart'])
  })

  it('connects push at a start from the store once the kept list is shown, following the conversation opened before then', async () => {
    const { scenery, bea } = await groupKeptWithBea()
    const beaApp = launchApp(scenery.proxy.origin, cleanups)
    await signInThroughSms(beaApp, scenery.service, bea)
    await beaApp.events.waitFor('push:status', (status) => status === 'connected')

    const again = launch(scenery)
    const starting = again.core.start()
    await again.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))
    // The page opens the conversation it left open as soon as it can, before push is up.
    await again.call('conversations:open', { conversationId: scenery.groupId })
    await starting
    await again.events.waitFor('push:status', (status) => status === 'connected')
    const order = again.events.log.map((entry) => entry.event)
    expect(order.indexOf('push:status')).toBeGreaterThan(order.indexOf('conversations:changed'))
    // Typing is told on the conversation's own channel only: it is followed.
    await beaApp.call('typing:typed', { conversationId: scenery.groupId })
    expect(await again.events.waitFor('typing:received')).toMatchObject({ conversationId: scenery.groupId })
  })

  it('never connects push for a core stopped while its kept list shows', async () => {
    const { scenery } = await groupKeptWithBea()
    const again = launch(scenery)
    const starting = again.core.start()
    await again.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))
    await starting
    await again.core.stop()
    // Past the hold's end, when push would have connected.
    await new Promise((resolve) => setTimeout(resolve, KEPT_FIRST_MS * 3))
    expect(again.events.all('push:status')).toEqual([])
  })

  it('keeps what is sent and pushed into a kept conversation not opened since a restart, the list saying it was up to date, in the history it shows', async () => {
    const { scenery, bea, kept } = await groupKeptWithBea()

    const online = launch(scenery)
    const caughtUp = nextCatchUp(online, scenery.groupId)
    await online.core.start()
    await online.events.waitFor('push:status', (status) => status === 'connected')
    // Never opened this run, and the list's newest message is the one kept: nothing is read.
    expect(await caughtUp).toEqual([])
    await sendAndReceive(online, scenery, bea, 'sent while it was not open', 'pushed while it was not open')
    // Opened now, from the store: what came while it was not open is on the page, not left to a catch-up that has nothing new to say.
    const opened = await online.call('conversations:open', { conversationId: scenery.groupId })
    expect(opened.messages.slice(-3).map((message) => message.text)).toEqual([kept, 'sent while it was not open', 'pushed while it was not open'])
    await online.core.stop()

    expect(await newestOffline(scenery, 3)).toEqual([kept, 'sent while it was not open', 'pushed while it was not open'])
  })

  it('keeps no message, name or unsent text readable in any file of the data directory', async () => {
    const scenery = await scene()
    const app = await signedInOnDevice(scope, scenery)
    const unique = `the otter naps by the quarry ${Date.now()}`
    await app.call('conversations:open', { conversationId: scenery.groupId })
    await app.call('messages:send', { conversationId: scenery.groupId, text: unique, clientId: 'unique-1' })
    await app.events.waitFor('messages:received', (message) => message.text === unique)
    await app.core.stop()

    const files = filesUnder(scenery.dataDir)
    expect(files.some((path) => path.endsWith('.db'))).toBe(true)
    for (const path of files) {
      const bytes = readFileSync(path)
      for (const secret of [unique, 'history 7', 'Quarry']) expect(bytes.includes(Buffer.from(secret)), `${secret} in ${path}`).toBe(false)
    }
  })

  it('brings every kept conversation up to date at a start, not only those opened, so they read offline after', async () => {
    const scenery = await scene()
    const first = await signedInOnDevice(scope, scenery)
    await first.call('conversations:open', { conversationId: scenery.groupId })
    await first.core.stop()
    await scenery.service.sendGroupMessage(scenery.ada, scenery.groupId, 'written while the app was closed')

    const online = launch(scenery)
    const caughtUp = new Promise<string[]>((resolve) =>
      online.core.messages.on('paged', (page) => {
        if (page.end === 'newer' && page.conversationId === scenery.groupId) resolve(page.messages.map((message) => message.text))
      })
    )
    await online.core.start()
    // Never opened this run: caught up because the list says it has news, once push is live.
    expect(await caughtUp).toEqual(['written while the app was closed'])
    await online.core.stop()

    scenery.proxy.cut()
    const offline = await restart(scenery)
    const { messages } = await offline.call('conversations:open', { conversationId: scenery.groupId })
    expect(messages.slice(-2).map((message) => message.text)).toEqual(['history 120', 'written while the app was closed'])
  })

  it('shows a group’s members, as last read, with the service out of reach', async () => {
    const scenery = await scene()
    const first = await signedInOnDevice(scope, scenery)
    const online = await first.call('groups:get', { groupId: scenery.groupId })
    await first.core.stop()

    scenery.proxy.cut()
    const offline = await restart(scenery)
    expect(await offline.call('groups:get', { groupId: scenery.groupId })).toEqual(online)
  })

  it('downloads the whole history in the background, after catch-up, and reads all of it offline with nothing doubled', async () => {
    const scenery = await scene()
    const first = launch(scenery)
    await signInThroughSms(first, scenery.service, scenery.ada)
    // Never opened: the download alone brings it.
    await first.events.waitFor('storage:progress', (download) => download.state === 'done', 30_000)
    expect(await first.call('storage:get', {})).toMatchObject({ usage: { messages: HISTORY_LENGTH, conversations: 1 } })
    await first.core.stop()

    scenery.proxy.cut()
    const offline = await restart(scenery)
    expect(await readWholeHistory(offline, scenery.groupId)).toEqual(everyMessage)
  })

  it('keeps an unsent text readable in no file of the data directory while it waits, and sends it once when the service is back', async () => {
    const scenery = await scene()
    const app = await signedInOnDevice(scope, scenery)
    await app.call('conversations:open', { conversationId: scenery.groupId })
    scenery.proxy.cut()
    const unique = `the heron waits by the weir ${Date.now()}`
    const pending = await app.call('messages:send', { conversationId: scenery.groupId, text: unique, clientId: 'waiting-1' })
    expect(pending).toMatchObject({ clientId: 'waiting-1', text: unique })
    await app.events.waitFor('outbox:changed', (change) => change.pending.some((message) => message.clientId === 'waiting-1' && message.state === 'failed'))

    // While the app runs, and the message waits: it is on disk, in the store, and nowhere in plain text.
    const files = filesUnder(scenery.dataDir)
    expect(files.some((path) => path.endsWith('.db'))).toBe(true)
    for (const path of files) expect(readFileSync(path).includes(Buffer.from(unique)), `${unique} in ${path}`).toBe(false)
    await app.core.stop()
    expect((await keptOutbox(scenery.dataDir, scenery.ada.id)).map((message) => message.text)).toEqual([unique])

    scenery.proxy.restore()
    const back = await restart(scenery)
    await back.events.waitFor('outbox:changed', (change) => change.conversationId === scenery.groupId && change.pending.length === 0, 30_000)
    const stored = await scenery.service.call('GET', `/v3/groups/${scenery.groupId}/messages`, { token: scenery.ada.token, query: { limit: '5' } })
    expect(stored.body.response.messages.filter((message: { text: string }) => message.text === unique)).toHaveLength(1)
  })

  it('moves an outbox an older version kept in the settings file into the store, and sends it once', async () => {
    const scenery = await scene()
    const first = await signedInOnDevice(scope, scenery)
    await first.call('conversations:open', { conversationId: scenery.groupId })
    await first.core.stop()
    const unique = `left by an older version ${Date.now()}`
    const legacy: PendingMessage = { clientId: 'legacy-1', conversationId: scenery.groupId, text: unique, queuedAt: Date.now(), state: 'failed', error: null }
    dataDirStores(scenery.dataDir, quietLog).preferences.set('outbox', [legacy])
    expect(readFileSync(join(scenery.dataDir, 'settings.json'), 'utf8')).toContain(unique)

    scenery.proxy.cut()
    const offline = await restart(scenery)
    expect((await offline.call('conversations:open', { conversationId: scenery.groupId })).pending).toMatchObject([{ clientId: 'legacy-1', text: unique }])
    for (const path of filesUnder(scenery.dataDir)) expect(readFileSync(path).includes(Buffer.from(unique)), `${unique} in ${path}`).toBe(false)
    await offline.core.stop()
    expect((await keptOutbox(scenery.dataDir, scenery.ada.id)).map((message) => message.clientId)).toEqual(['legacy-1'])

    scenery.proxy.restore()
    const back = await restart(scenery)
    await back.events.waitFor('outbox:changed', (change) => change.conversationId === scenery.groupId && change.pending.length === 0, 30_000)
    const stored = await scenery.service.call('GET', `/v3/groups/${scenery.groupId}/messages`, { token: scenery.ada.token, query: { limit: '5' } })
    expect(stored.body.response.messages.filter((message: { source_guid: string }) => message.source_guid === 'legacy-1')).toHaveLength(1)
  })

  it('keeps what waited when the session ended for the same account, and never sends it as another who signs in meanwhile', async () => {
    const scenery = await scene()
    const bea = await scenery.service.createUser({ name: 'Bea' })
    const app = await signedInOnDevice(scope, scenery)
    await scenery.service.call('POST', '/v2/access_tokens/current/destroy', { token: (await app.vault.load())?.token ?? '' })
    await app.call('messages:send', { conversationId: scenery.groupId, text: 'Ada wrote this', clientId: 'ada-1' })
    await app.events.waitFor('session:changed', (state) => state.status === 'signedOut')

    // Bea's store is another: nothing of Ada's waits there, and nothing goes out as Bea.
    await signInThroughSms(app, scenery.service, bea)
    expect(await app.call('conversations:list', {})).toEqual([])
    expect(app.events.all('outbox:changed').at(-1)).toMatchObject({ conversationId: scenery.groupId, pending: [] })
    await app.call('session:signOut', {})

    const changesBefore = app.events.all('outbox:changed').length
    await signInThroughSms(app, scenery.service, scenery.ada)
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === scenery.groupId && change.pending.length === 0, 30_000, changesBefore)
    const stored = await scenery.service.call('GET', `/v3/groups/${scenery.groupId}/messages`, { token: scenery.ada.token, query: { limit: '5' } })
    expect(stored.body.response.messages.filter((message: { source_guid: string }) => message.source_guid === 'ada-1')).toEqual([
      expect.objectContaining({ text: 'Ada wrote this', user_id: scenery.ada.id })
    ])
  })
})

describe('with no store to keep the outbox in', () => {
  it('keeps what is written in memory, says so, writes it nowhere in plain text, and still sends it', async () => {
    const scenery = await scene()
    const unopenable: LocalStores = {
      open: () => Promise.reject(new Error('disk I/O error')),
      replaceDamaged: () => Promise.reject(new Error('disk I/O error')),
      has: async () => false,
      remove: async () => undefined
    }
    const app = launchApp(scenery.proxy.origin, cleanups, { stores: unopenable })
    await signInThroughSms(app, scenery.service, scenery.ada)
    await app.events.waitFor('storage:notice', (notice) => notice.text === OPEN_FAILED_NOTICE)
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scenery.groupId))
    scenery.proxy.cut()
    await app.call('messages:send', { conversationId: scenery.groupId, text: 'kept in memory', clientId: 'memory-1' })
    await app.events.waitFor('outbox:changed', (change) => change.pending.some((message) => message.clientId === 'memory-1' && message.state === 'failed'))
    expect(app.preferences.values.outbox).toBeUndefined()

    scenery.proxy.restore()
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === scenery.groupId && change.pending.length === 0, 30_000)
    const stored = await scenery.service.call('GET', `/v3/groups/${scenery.groupId}/messages`, { token: scenery.ada.token, query: { limit: '5' } })
    expect(stored.body.response.messages.filter((message: { source_guid: string }) => message.source_guid === 'memory-1')).toHaveLength(1)
    // Told once, in one notice that says both that nothing is kept and that unsent messages last the run only.
    expect(app.events.all('storage:notice')).toEqual([{ text: OPEN_FAILED_NOTICE }])
  })
})
