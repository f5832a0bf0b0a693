// Catching up after an outage, when the catch-up itself fails: push is back, but the read of what
// it missed loses its answer on the way. Push stays up, so no further reconnect will ask again:
// the core must, or what was written during the outage never shows.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { launchApp, signInThroughSms, testScope } from '../support/app-harness'
import { startTcpProxy } from '../support/tcp-proxy'

const { cleanups, service: serviceFor } = testScope()

const CATCH_UP_READ = /^GET \/v3\/groups\/\d+\/messages\?after_id=/

describe('catching up after an outage', () => {
  it('reads again what push missed when the first catch-up fails and push stays up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-catch-up-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const db = join(dataDir, 'service.db')
    const service = await serviceFor({ db })
    const proxy = await startTcpProxy(service.origin)
    cleanups.push(() => proxy.close())
    const ada = await service.createUser({ name: 'Ada' })
    const bea = await service.signUp({ name: 'Bea' })
    const groupId = String((await service.createGroup(bea, { name: 'Trail' })).id)
    await service.call('POST', `/v3/groups/${groupId}/members/add`, {
      token: bea.token,
      attest: true,
      body: { members: [{ user_id: ada.id, nickname: 'Ada' }] }
    })
    const app = launchApp(proxy.origin, cleanups)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.length === 1)
    await app.call('conversations:open', { conversationId: groupId })

    // A restart makes the service forget the app's push client, and with it anything queued for it:
    // what is written before the app subscribes again only a catch-up can bring.
    proxy.cut()
    await app.events.waitFor('push:status', (status) => status !== 'connected')
    await service.close()
    const restarted = await serviceFor({ db, port: Number(new URL(service.origin).port) })
    for (let n = 1; n <= 3; n += 1) await restarted.sendGroupMessage(bea, groupId, `missed ${n}`)
    // Two: the REST client sends a read once more by itself when its connection drops.
    const lost = proxy.loseAnswersTo(CATCH_UP_READ, 2)
    const statusesBefore = app.events.all('push:status').length
    proxy.restore()
    await app.events.waitFor('push:status', (status) => status === 'connected', 20_000, statusesBefore)
    await lost

    const missed = (): string[] => app.events.all('messages:received').flatMap((message) => (message.text.startsWith('missed ') ? [message.text] : []))
    await expect.poll(missed, { timeout: 20_000 }).toEqual(['missed 1', 'missed 2', 'missed 3'])
    // It was the core asking again, not push coming back once more.
    expect(app.events.all('push:status').slice(statusesBefore)).toEqual(['connected'])
  })
})
