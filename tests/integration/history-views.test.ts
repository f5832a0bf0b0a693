// A conversation's pictures, opening it at one message, and its export, through the whole of main
// against the real local service and a real store on disk: Grace sent a picture and 250 messages
// after it. Ada has opened the group only (its newest page kept) when she exports it: the rest is
// fetched from the service first, and the file has every message in order and the picture in it.
// Then Pictures lists the picture from the store, and the group opens at its message in one piece.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { launchAppOnDisk, signInThroughSms, testScope } from '../support/app-harness'

const { cleanups, service: serviceFor } = testScope()

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('sunset '.repeat(100))])
const AFTER = 250
const localAddress = (url: string): string => `/kept-pictures/test-key?url=${encodeURIComponent(url)}`

describe('a conversation’s whole history, from the store and the service', () => {
  it('exports every message, fetching what is not kept first; lists its picture; opens at its message in one piece', { timeout: 90_000 }, async () => {
    const service = await serviceFor()
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-history-views-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const groupId = String((await service.createGroup(grace, { name: 'Sunsets <3' })).id)
    await service.call('POST', `/v3/groups/${groupId}/members/add`, { token: grace.token, attest: true, body: { members: [{ user_id: ada.id, nickname: 'Ada' }] } })
    const upload = await service.call('POST', '/image/pictures', { token: grace.token, body: PNG, headers: { 'content-type': 'image/png' } })
    const pictureUrl: string = upload.body.payload.url
    await service.sendGroupMessage(grace, groupId, 'The first <b>sunset</b>', { attachments: [{ type: 'image', url: pictureUrl }] })
    for (let n = 0; n < AFTER; n += 1) await service.sendGroupMessage(grace, groupId, `After ${n}`)

    const app = launchAppOnDisk(service.origin, cleanups, dataDir, { config: { pictureOrigins: service.origin }, keptPictureAddress: localAddress })
    await signInThroughSms(app, service, ada)
    // Nothing older downloads by itself: what the export needs, it fetches.
    await app.call('storage:keepFullHistory', { on: false })
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
    const opened = await app.call('conversations:open', { conversationId: groupId })
    expect(opened.messages).toHaveLength(50)

    const json = await app.call('exports:start', { exportId: 'export-json-0001', conversationId: groupId, format: 'json' })
    // Every message: Grace's, and the line saying she added Ada.
    expect(json).toMatchObject({ status: 'saved', messages: AFTER + 2, toPage: true })
    const fetching = app.events.all('exports:progress').filter((progress) => progress.exportId === 'export-json-0001' && progress.phase === 'fetching')
    expect(fetching.length).toBeGreaterThan(1)
    const text = app.events
      .all('exports:chunk')
      .filter((chunk) => chunk.exportId === 'export-json-0001')
      .map((chunk) => chunk.text)
      .join('')
    const file = JSON.parse(text) as { conversation: { name: string }; messages: Message[] }
    expect(file.conversation.name).toBe('Sunsets <3')
    expect(file.messages.filter((message) => !message.system).map((message) => message.text)).toEqual(['The first <b>sunset</b>', ...Array.from({ length: AFTER }, (_, n) => `After ${n}`)])
    expect(file.messages).toHaveLength(AFTER + 2)
    // As the service gave it: the picture's own address, not this device's.
    const first = file.messages.find((message) => message.text === 'The first <b>sunset</b>')
    expect(first?.attachments).toEqual([{ type: 'image', url: pictureUrl }])

    const html = await app.call('exports:start', { exportId: 'export-html-0001', conversationId: groupId, format: 'html' })
    expect(html).toMatchObject({ status: 'saved', messages: AFTER + 2 })
    const page = app.events
      .all('exports:chunk')
      .filter((chunk) => chunk.exportId === 'export-html-0001')
      .map((chunk) => chunk.text)
      .join('')
    expect(page).toContain('>The first &lt;b&gt;sunset&lt;/b&gt;</p>')
    expect(page).toContain(`src="data:image/png;base64,${PNG.toString('base64')}"`)
    for (let n = 0; n < AFTER; n += 1) expect(page).toContain(`>After ${n}</p>`)
    expect(page.toLowerCase()).not.toContain('<script')

    const pictures = await app.call('conversations:pictures', { conversationId: groupId, beforeId: null })
    expect(pictures).toEqual({ pictures: [{ messageId: first?.id, url: localAddress(pictureUrl), senderName: 'Grace', createdAt: first?.createdAt }], next: null })

    const oldestShown = opened.messages[0]
    const at = await app.call('conversations:openAt', { conversationId: groupId, messageId: first?.id ?? '', beforeId: oldestShown?.id ?? null })
    expect(at.found).toBe(true)
    expect(at.hasOlder).toBe(false)
    expect(at.messages.find((message) => message.id === first?.id)?.attachments).toEqual([{ type: 'image', url: localAddress(pictureUrl) }])
    // From the very first message (fewer than the context lie before it) up to the oldest shown.
    expect(at.messages.map((message) => message.id)).toEqual(file.messages.slice(0, file.messages.length - 50).map((message) => message.id))
  })
})
