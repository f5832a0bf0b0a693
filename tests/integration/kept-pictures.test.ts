// Pictures of kept messages against the real local service and real files: a picture uploaded to
// the image service (I1) and carried by a message the app reads is fetched and kept on this device,
// encrypted, and so is the group's picture the list shows; with the service gone, the history
// opened from the store gives the page the picture's local address, the list the group picture's,
// and the kept bytes answer them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { startTcpProxy } from '../support/tcp-proxy'
import type { Preferences, TokenVault } from '../../src/main/core/ports'

const { cleanups, service: serviceFor } = testScope()

/** A PNG's signature, then a run of bytes easy to look for on disk. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('ridge-at-dawn '.repeat(400))])

const localAddress = (url: string): string => `/kept-pictures/test-key?url=${encodeURIComponent(url)}`

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .map((name) => join(directory, name))
    .filter((path) => statSync(path).isFile())
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('waited 10 s in vain')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('pictures kept on this device', () => {
  it('keeps the picture of a message it reads, encrypted, and serves it with the service gone', async () => {
    const service = await serviceFor()
    const proxy = await startTcpProxy(service.origin)
    cleanups.push(() => proxy.close())
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-kept-pictures-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const groupId = String((await service.createGroup(grace, { name: 'Ridge' })).id)
    await service.addMember(grace, groupId, ada)
    const upload = await service.call('POST', '/image/pictures', { token: grace.token, body: PNG, headers: { 'content-type': 'image/png' } })
    const pictureUrl: string = upload.body.payload.url
    await service.sendGroupMessage(grace, groupId, 'The view from the ridge', { attachments: [{ type: 'image', url: pictureUrl }] })
    // The group's own picture (G6), which the list shows.
    const groupPicture = await service.call('POST', '/image/pictures', { token: grace.token, body: Buffer.concat([PNG, Buffer.from('group')]), headers: { 'content-type': 'image/png' } })
    const groupPictureUrl: string = groupPicture.body.payload.url
    await service.call('POST', `/v3/groups/${groupId}/update`, { token: grace.token, body: { image_url: groupPictureUrl } })

    // The app talks to the service through the relay; the picture's address is the service's own
    // origin, a picture origin in these settings.
    const launch = (): AppHarness<TokenVault, Preferences> =>
      launchAppOnDisk(proxy.origin, cleanups, dataDir, { config: { pictureOrigins: service.origin }, keptPictureAddress: localAddress })
    const first = launch()
    await signInThroughSms(first, service, ada)
    await first.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
    const opened = await first.call('conversations:open', { conversationId: groupId })
    // Not kept yet when the page asked: it loads the picture from the service, as before.
    expect(opened.messages.at(-1)?.attachments).toEqual([{ type: 'image', url: pictureUrl }])
    await until(() => first.core.pictures.usage()?.pictures === 2)
    await first.core.stop()

    const store = join(dataDir, 'store')
    for (const path of filesUnder(store)) {
      const bytes = readFileSync(path)
      expect(bytes.includes('ridge-at-dawn'), path).toBe(false)
      expect(bytes.includes(pictureUrl.slice(-32)), path).toBe(false)
    }

    proxy.cut()
    await service.close()
    const offline = launch()
    await offline.core.start()
    await offline.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
    const reopened = await offline.call('conversations:open', { conversationId: groupId })
    const shown = reopened.messages.at(-1)
    expect(shown?.text).toBe('The view from the ridge')
    expect(shown?.attachments).toEqual([{ type: 'image', url: localAddress(pictureUrl) }])
    const served = await offline.core.pictures.serve(pictureUrl)
    expect(served?.contentType).toBe('image/png')
    expect(Buffer.from(served?.bytes ?? [])).toEqual(PNG)
    expect(offline.core.pictures.usage()).toMatchObject({ pictures: 2, limitBytes: 500_000_000 })
    // The list's picture of the group is kept too: offline is not faceless.
    const listed = (await offline.call('conversations:list', {})).find((conversation) => conversation.id === groupId)
    expect(listed?.avatarUrl).toBe(localAddress(groupPictureUrl))
  })
})
