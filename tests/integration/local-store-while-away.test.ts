// What became of kept messages while the app was not running, against the real service and real
// files: a page shown from the store is checked against the service's copy of it, so an edit, a
// deletion, a reaction and a pin made meanwhile show, and a message the service no longer has at
// all (a deployment's retention) shows as deleted; the store keeps all of it, and reads it so with
// the service out of reach.
import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { testScope, type AppHarness } from '../support/app-harness'
import { keptDevice, launchOnDevice, numberedHistory, readWholeHistory, removeFromService, signedInOnDevice, type KeptDevice } from '../support/kept-device'

const scope = testScope()

type App = AppHarness<TokenVault, Preferences>

interface Scene extends KeptDevice {
  bea: KeptDevice['ada']
  /** Bea's messages by their text. */
  written: Record<'toRemove' | 'toEdit' | 'toDelete' | 'toReact' | 'toPin', string>
  /** Ada's first message, which the service's retention takes away. */
  oldest: string
}

/** More than a page of Ada's history (the oldest of it on an older page), then Bea's messages, all kept by a first run. */
async function keptScene(): Promise<Scene> {
  const device = await keptDevice(scope, numberedHistory(60), { serviceOnFile: true })
  const { service, groupId, ada } = device
  const bea = await service.signUp({ name: 'Bea' })
  await service.addMember(ada, groupId, bea)
  const write = async (text: string): Promise<string> => String((await service.sendGroupMessage(bea, groupId, text)).id)
  // The one to remove is not the newest: nothing after it would show that it is gone rather than not listed yet.
  const written = {
    toRemove: await write('soon removed by retention'),
    toEdit: await write('before the edit'),
    toDelete: await write('soon deleted'),
    toReact: await write('react to me'),
    toPin: await write('pin me')
  }
  const listed = await service.call('GET', `/v3/groups/${groupId}/messages`, { token: ada.token, query: { after_id: '0', limit: '1' } })
  const oldest = String(listed.body.response.messages[0].id)

  const first = await signedInOnDevice(scope, device)
  const texts = await readWholeHistory(first, groupId)
  expect(texts).toContain('history 1')
  expect(texts).toContain('pin me')
  await first.core.stop()
  return { ...device, bea, written, oldest }
}

/** Bea edits, deletes, reacts and pins; the service loses one of hers and Ada's oldest outright. */
async function whileAway(scene: Scene): Promise<void> {
  const { service, groupId, bea, written } = scene
  const expectOk = (status: number, what: string): void => {
    if (status < 200 || status > 299) throw new Error(`${what}: ${status}`)
  }
  expectOk((await service.call('PUT', `/v4/groups/${groupId}/messages/${written.toEdit}`, { token: bea.token, body: { text: 'after the edit' } })).status, 'MS4')
  expectOk((await service.call('DELETE', `/v3/conversations/${groupId}/messages/${written.toDelete}`, { token: bea.token })).status, 'MS5')
  expectOk((await service.call('POST', `/v3/messages/${groupId}/${written.toReact}/like`, { token: bea.token, body: { like_icon: { type: 'unicode', code: '🔥' } } })).status, 'RX1')
  expectOk((await service.call('POST', `/v3/conversations/${groupId}/messages/${written.toPin}/pin`, { token: bea.token })).status, 'MS6')
  removeFromService(scene, written.toRemove)
  removeFromService(scene, scene.oldest)
}

async function start(scene: Scene): Promise<App> {
  const app = launchOnDevice(scope, scene)
  await app.core.start()
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scene.groupId))
  return app
}

/** The page as the renderer holds it: what it was given, with each newer copy main said since put in. */
function shownAfterUpdates(app: App, page: Message[]): Message[] {
  const updates = app.events.all('messages:updated')
  return page.map((message) => updates.findLast((update) => update.id === message.id) ?? message)
}

function byId(messages: Message[], id: string): Message {
  const found = messages.find((message) => message.id === id)
  if (found === undefined) throw new Error(`no message ${id} shown`)
  return found
}

/** What each of the scene's messages shows as. */
function expectAsChangedWhileAway(messages: Message[], scene: Scene): void {
  const { written } = scene
  expect(byId(messages, written.toEdit)).toMatchObject({ text: 'after the edit', deleted: false, editedAt: expect.any(Number) })
  expect(byId(messages, written.toDelete)).toMatchObject({ deleted: true, attachments: [] })
  expect(byId(messages, written.toReact).reactions).toEqual([{ emoji: '🔥', userIds: [scene.bea.id] }])
  expect(byId(messages, written.toPin).pinnedAt).toEqual(expect.any(Number))
  const removed = byId(messages, written.toRemove)
  expect(removed).toMatchObject({ deleted: true, text: '', attachments: [], senderId: scene.bea.id })
  expect(messages.find((message) => message.text === 'soon deleted' || message.text === 'soon removed by retention' || message.text === 'before the edit')).toBeUndefined()
}

describe('kept messages changed or gone while the app was away', () => {
  it('shows the edit, the deletion, the reaction and the pin, and a message the service no longer has as deleted, and keeps them so', async () => {
    const scene = await keptScene()
    await whileAway(scene)

    const app = await start(scene)
    const opened = await app.call('conversations:open', { conversationId: scene.groupId })
    // Shown at once as kept; the service's word follows.
    expect(byId(opened.messages, scene.written.toEdit).text).toBe('before the edit')
    await app.events.waitFor('messages:updated', (message) => message.id === scene.written.toRemove && message.deleted, 20_000)
    await expect.poll(() => shownAfterUpdates(app, opened.messages).filter((message) => message.deleted).length).toBe(2)
    const newest = shownAfterUpdates(app, opened.messages)
    expectAsChangedWhileAway(newest, scene)
    // Nothing went missing from the page: the removed message stays where it was, as a tombstone.
    expect(newest.map((message) => message.id)).toEqual(opened.messages.map((message) => message.id))

    // Ada's oldest message is on an older page, served from the store and checked behind it.
    let oldestPage: Message[] = []
    let before = opened.messages[0]?.id
    while (before !== undefined) {
      const page = await app.call('messages:loadOlder', { conversationId: scene.groupId, beforeId: before })
      if (!page.hasOlder) oldestPage = page.messages
      before = page.hasOlder ? page.messages[0]?.id : undefined
    }
    expect(byId(oldestPage, scene.oldest)).toMatchObject({ text: 'history 1', deleted: false })
    await app.events.waitFor('messages:updated', (message) => message.id === scene.oldest, 20_000)
    expect(byId(shownAfterUpdates(app, oldestPage), scene.oldest)).toMatchObject({ deleted: true, text: '' })
    // Only the service's changes: nothing else on the older pages was said again.
    expect(app.events.all('messages:updated').filter((message) => message.text.startsWith('history '))).toEqual([])
    await app.core.stop()

    // What is kept says the same, with the service out of reach.
    scene.proxy.cut()
    const offline = await start(scene)
    const reopened = await offline.call('conversations:open', { conversationId: scene.groupId })
    expectAsChangedWhileAway(reopened.messages, scene)
    const whole: Message[] = [...reopened.messages]
    let older = reopened.messages[0]?.id
    while (older !== undefined) {
      const page = await offline.call('messages:loadOlder', { conversationId: scene.groupId, beforeId: older })
      whole.unshift(...page.messages)
      older = page.hasOlder ? page.messages[0]?.id : undefined
    }
    expect(byId(whole, scene.oldest)).toMatchObject({ deleted: true, text: '' })
    expect(whole.filter((message) => message.text.startsWith('history ')).map((message) => message.text)).toEqual(numberedHistory(60).slice(1))
    expect(offline.events.all('messages:updated')).toEqual([])
  })

  it('changes nothing, and shows what is kept, when the service is out of reach', async () => {
    const scene = await keptScene()
    await whileAway(scene)
    scene.proxy.cut()
    const app = await start(scene)
    const opened = await app.call('conversations:open', { conversationId: scene.groupId })
    expect(byId(opened.messages, scene.written.toDelete)).toMatchObject({ text: 'soon deleted', deleted: false })
    expect(byId(opened.messages, scene.written.toRemove)).toMatchObject({ text: 'soon removed by retention', deleted: false })
    const older = await app.call('messages:loadOlder', { conversationId: scene.groupId, beforeId: opened.messages[0]?.id ?? '' })
    expect(older.messages.length).toBeGreaterThan(0)
    // Give a check that should not run the time to: none may say anything.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(app.events.all('messages:updated')).toEqual([])
  })
})
