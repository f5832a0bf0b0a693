// Pictures against the real local service: core uploads the bytes to the image service (I1) with
// progress, can cancel an upload, refuses what is not a picture before the service sees it, and
// sends messages that carry the uploaded pictures, with text or without, from the outbox (which
// keeps them across a restart) to the other member, who gets them by push.
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { ServiceClient } from '../../src/main/api/service-client'
import { localServiceConfig } from '../../src/main/api/service-config'
import { uploadPicture } from '../../src/main/api/images'
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import { launchApp, signInThroughSms, testScope, type AppHarness, type LaunchOptions } from '../support/app-harness'
import { MemoryPreferences, MemoryVault } from '../support/memory-platform'
import { tokenFrom } from '../support/memory-platform'

const { cleanups, service: serviceFor } = testScope()

const launch = (service: TestService, options: LaunchOptions = {}): AppHarness => launchApp(service.origin, cleanups, options)

/** A PNG's signature followed by `size - 8` bytes: the service checks the signature and the size, nothing more. */
function png(size = 64): Uint8Array {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

interface Pair {
  ada: TestUser
  grace: TestUser
  groupId: ConversationId
}

async function twoInAGroup(service: TestService): Promise<Pair> {
  const ada = await service.signUp({ name: 'Ada' })
  const grace = await service.signUp({ name: 'Grace' })
  const group = await service.createGroup(grace, { name: 'Sketches' })
  const added = await service.call('POST', `/v3/groups/${group.id}/members/add`, {
    token: grace.token,
    attest: true,
    body: { members: [{ user_id: ada.id, nickname: 'Ada' }] }
  })
  expect(added.status).toBe(202)
  return { ada, grace, groupId: String(group.id) }
}

async function signedIn(service: TestService, user: TestUser, groupId: ConversationId, options: LaunchOptions = {}): Promise<AppHarness> {
  const app = launch(service, options)
  await signInThroughSms(app, service, user)
  await app.events.waitFor('conversations:changed', (list) => list.some((c) => c.id === groupId))
  return app
}

describe('uploading a picture (I1)', () => {
  it('answers an image-service URL that serves the same bytes, reporting progress up to the whole', async () => {
    const service = await serviceFor()
    const { ada, groupId } = await twoInAGroup(service)
    const app = await signedIn(service, ada, groupId)
    const bytes = png(300 * 1024)

    const { url } = await app.call('uploads:start', { uploadId: 'upload-0001', contentType: 'image/png', bytes })

    expect(url).toMatch(new RegExp(`^${service.origin}/image/i/[0-9a-f]{32}$`))
    const served = await fetch(url)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
    const progress = app.events.all('uploads:progress').filter((event) => event.uploadId === 'upload-0001')
    expect(progress[0]).toEqual({ uploadId: 'upload-0001', sentBytes: 0, totalBytes: bytes.length })
    expect(progress.at(-1)).toEqual({ uploadId: 'upload-0001', sentBytes: bytes.length, totalBytes: bytes.length })
    const sent = progress.map((event) => event.sentBytes)
    expect(sent).toEqual(sent.toSorted((a, b) => a - b))
    expect(progress.length).toBeGreaterThan(2)
  })

  it('refuses bytes that are not the picture their type claims, before the service sees them', async () => {
    const service = await serviceFor()
    const { ada, groupId } = await twoInAGroup(service)
    const app = await signedIn(service, ada, groupId)

    await expect(app.call('uploads:start', { uploadId: 'upload-0002', contentType: 'image/jpeg', bytes: png() })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'This file is not a JPEG, PNG or GIF picture, so it cannot be sent.'
    })
    expect(app.events.all('uploads:progress')).toEqual([])
  })

  it('stops when cancelled, and the upload fails as cancelled', async () => {
    const service = await serviceFor()
    const { ada, groupId } = await twoInAGroup(service)
    const app = await signedIn(service, ada, groupId)

    const upload = app.call('uploads:start', { uploadId: 'upload-0003', contentType: 'image/png', bytes: png(10 * 1024 * 1024) })
    await app.events.waitFor('uploads:progress', (event) => event.uploadId === 'upload-0003')
    await app.call('uploads:cancel', { uploadId: 'upload-0003' })

    await expect(upload).rejects.toMatchObject({ code: 'CONFLICT', message: 'The upload was cancelled.' })
    // Cancelling what has ended already is harmless.
    await expect(app.call('uploads:cancel', { uploadId: 'upload-0003' })).resolves.toBeNull()
  })

  it('says the image service refused a picture it would not take', async () => {
    const service = await serviceFor()
    const user = await service.signUp({ name: 'Ada' })
    const client = new ServiceClient({ config: localServiceConfig(service.origin), getToken: () => tokenFrom(localServiceConfig(service.origin), user.token) })
    // The api layer checks nothing itself: the service's own 400 for a wrong signature comes back.
    await expect(uploadPicture(client, { bytes: Uint8Array.of(1, 2, 3, 4), contentType: 'image/gif' })).rejects.toMatchObject({ status: 400 })
  })
})

describe('sending pictures', () => {
  it('sends pictures with text or without, and the other member gets them by push', async () => {
    const service = await serviceFor()
    const { ada, grace, groupId } = await twoInAGroup(service)
    const adaApp = await signedIn(service, ada, groupId)
    const graceApp = await signedIn(service, grace, groupId)
    await graceApp.call('conversations:open', { conversationId: groupId })
    await adaApp.call('conversations:open', { conversationId: groupId })

    const first = await adaApp.call('uploads:start', { uploadId: 'upload-0004', contentType: 'image/png', bytes: png() })
    const second = await adaApp.call('uploads:start', { uploadId: 'upload-0005', contentType: 'image/png', bytes: png(128) })
    const firstPicture = { type: 'image' as const, url: first.url }
    const attachments = [firstPicture, { type: 'image' as const, url: second.url }]
    const pending = await adaApp.call('messages:send', { conversationId: groupId, text: 'Two views', clientId: 'client-0001', attachments })
    expect(pending.attachments).toEqual(attachments)
    await adaApp.call('messages:send', { conversationId: groupId, text: '', clientId: 'client-0002', attachments: [firstPicture] })

    const withText = await graceApp.events.waitFor('messages:received', (message) => message.sourceGuid === 'client-0001')
    expect(withText).toMatchObject({ text: 'Two views', attachments })
    const alone = await graceApp.events.waitFor('messages:received', (message) => message.sourceGuid === 'client-0002')
    expect(alone).toMatchObject({ text: '', attachments: [firstPicture] })
  })

  it('refuses a message with nothing in it, and more than ten attachments', async () => {
    const service = await serviceFor()
    const { ada, groupId } = await twoInAGroup(service)
    const app = await signedIn(service, ada, groupId)
    const { url } = await app.call('uploads:start', { uploadId: 'upload-0006', contentType: 'image/png', bytes: png() })

    await expect(app.call('messages:send', { conversationId: groupId, text: ' ', clientId: 'client-0003', attachments: [] })).rejects.toMatchObject({
      code: 'VALIDATION'
    })
    const eleven = Array.from({ length: 11 }, () => ({ type: 'image' as const, url }))
    await expect(app.call('messages:send', { conversationId: groupId, text: 'too many', clientId: 'client-0004', attachments: eleven })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'A message can carry at most 10 attachments.'
    })
  })

  it('keeps the pictures of a message not yet sent across a restart, and sends them when the app is back', async () => {
    const service = await serviceFor()
    const { ada, grace, groupId } = await twoInAGroup(service)
    const vault = new MemoryVault()
    const preferences = new MemoryPreferences()
    const first = await signedIn(service, ada, groupId, { vault, preferences })
    const { url } = await first.call('uploads:start', { uploadId: 'upload-0007', contentType: 'image/png', bytes: png() })
    await first.core.stop()
    // What the outbox keeps is what the next start finds: a message written just before quitting.
    preferences.set('outbox', [
      { clientId: 'client-0005', conversationId: groupId, text: 'From before', attachments: [{ type: 'image', url }], queuedAt: Date.now(), state: 'sending', error: null }
    ])

    const graceApp = await signedIn(service, grace, groupId)
    await graceApp.call('conversations:open', { conversationId: groupId })
    const next = launch(service, { vault, preferences })
    await next.core.start()

    const arrived: Message = await graceApp.events.waitFor('messages:received', (message) => message.sourceGuid === 'client-0005')
    expect(arrived).toMatchObject({ text: 'From before', attachments: [{ type: 'image', url }] })
  })
})

describe('pictures on another origin', () => {
  it('reach the page as links, and without avatars, until Settings ▸ Service lists their origin, then as they are', async () => {
    // The service's public origin stands for a host it serves pictures from: every picture URL it
    // answers names that origin, while the app reaches its image service at the address it listens on.
    const pictures = 'https://pictures.example.test'
    const service = await serviceFor({ env: { SERVICE_PUBLIC_ORIGIN: pictures } })
    const { ada, grace, groupId } = await twoInAGroup(service)
    const upload = async (): Promise<string> => {
      const answer = await service.call('POST', '/image/pictures', { token: grace.token, headers: { 'content-type': 'image/png' }, body: Buffer.from(png()) })
      expect(answer.status).toBe(200)
      return answer.body.payload.url as string
    }
    const [avatarUrl, pictureUrl] = [await upload(), await upload()]
    expect(new URL(pictureUrl).origin).toBe(pictures)
    expect((await service.call('POST', '/v3/users/update', { token: grace.token, body: { avatar_url: avatarUrl } })).status).toBe(200)

    const app = launchApp(service.boundOrigin, cleanups)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.some((c) => c.id === groupId))
    await app.call('conversations:open', { conversationId: groupId })
    await service.sendGroupMessage(grace, groupId, 'From the other host', { attachments: [{ type: 'image', url: pictureUrl }] })

    const pushed = await app.events.waitFor('messages:received', (message) => message.text === 'From the other host')
    expect(pushed).toMatchObject({ senderAvatarUrl: null, attachments: [{ type: 'imageLink', url: pictureUrl }] })
    const members = (await app.call('groups:get', { groupId })).members
    expect(members.find((member) => member.userId === grace.id)?.avatarUrl).toBeNull()

    const { settings } = await app.call('service:get', {})
    await app.call('service:save', { settings: { ...settings, pictureOrigins: pictures } })
    const read = (await app.call('conversations:open', { conversationId: groupId })).messages.find((message) => message.text === 'From the other host')
    expect(read).toMatchObject({ senderAvatarUrl: avatarUrl, attachments: [{ type: 'image', url: pictureUrl }] })
    expect((await app.call('groups:get', { groupId })).members.find((member) => member.userId === grace.id)?.avatarUrl).toBe(avatarUrl)
  })
})
