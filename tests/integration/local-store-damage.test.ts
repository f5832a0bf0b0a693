// A damaged store against the real service and real files: a database that cannot be read (not a
// database, cut short, a flipped byte in one page, the key that reads it replaced or spoilt) is
// set aside, the person is told in words, and the app carries on from the service, keeping the
// history it reads again. What waited unsent is never lost in silence: where the old file can
// still be read (a flipped page) it goes out once; where it cannot, the outbox went with it (it is
// kept nowhere else, so no message text is ever on disk in plain form) and the notice says how
// many messages were lost.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { keptDevice, keptOutbox, numberedHistory, readWholeHistory, signedInOnDevice, type KeptDevice } from '../support/kept-device'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { SET_ASIDE_NOTICE } from '../../src/main/storage/local-store/local-stores'
import { CHECK_AFTER_MS } from '../../src/main/core/store-keeper'
import { TOKEN_FILE_NAME } from '../../src/main/storage/file-token-vault'
import { environmentWithoutParley, startBrowserCli, type BrowserCli } from '../support/browser-cli'

const scope = testScope()
const { cleanups, service: serviceFor } = scope

/** Enough messages that the database spans many pages, so a late one holds only messages. */
const HISTORY_LENGTH = 120
const everyMessage = numberedHistory(HISTORY_LENGTH)

type Scene = KeptDevice

/** Ada's device after a run that kept her group's whole history, and one message written offline, still unsent. */
async function keptThenStopped(): Promise<Scene> {
  const device = await keptDevice(scope, everyMessage)
  const { proxy, groupId } = device
  const app = await signedInOnDevice(scope, device)
  expect(await readWholeHistory(app, groupId)).toEqual(everyMessage)
  proxy.cut()
  await app.call('messages:send', { conversationId: groupId, text: 'written before the damage', clientId: 'before-damage' })
  await app.events.waitFor('outbox:changed', ({ pending }) => pending.some((message) => message.state === 'failed'))
  await app.core.stop()
  proxy.restore()
  return device
}

function storeFile({ dataDir, ada }: Scene, suffix: 'db' | 'key'): string {
  return join(dataDir, 'store', `${ada.id}.${suffix}`)
}

function setAsideFiles({ dataDir, ada }: Scene): string[] {
  return readdirSync(join(dataDir, 'store')).filter((name) => name.startsWith(`${ada.id}.db.set-aside-`))
}

async function serviceTexts(scene: Scene): Promise<string[]> {
  const { body } = await scene.service.call<{ response: { messages: { text: string }[] } }>('GET', `/v3/groups/${scene.groupId}/messages?limit=100`, {
    token: scene.ada.token
  })
  return body.response.messages.map((message) => message.text)
}

/**
 * What became of the message written before the damage: `kept` (read back out of the old file and
 * sent once) or `lost` (unreadable with the rest, and the notice says so: 1 message).
 */
type Outcome = 'kept' | 'lost'

/**
 * Starts the app on the damaged directory and checks it tells, sets aside and rebuilds from the
 * service; that what waited unsent is sent once, or named in the notice as lost and then nowhere
 * (neither sent nor waiting, nor told again); then that a start with the service out of reach shows
 * what it rebuilt, with nothing more to tell.
 */
async function startsAndCarriesOn(scene: Scene, outcome: Outcome, start: (app: AppHarness<TokenVault, Preferences>) => Promise<void>): Promise<void> {
  const app = launchAppOnDisk(scene.proxy.origin, cleanups, scene.dataDir)
  await start(app)
  await app.events.waitFor('storage:notice', () => true)
  const told = outcome === 'kept' ? SET_ASIDE_NOTICE : `${SET_ASIDE_NOTICE} 1 message you wrote had not been sent and could not be recovered.`
  expect(app.events.all('storage:notice')).toEqual([{ text: told }])
  expect(setAsideFiles(scene)).toHaveLength(1)
  expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: scene.ada.id } })
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scene.groupId))
  const sent = outcome === 'kept' ? await sentOnce(app, scene) : await namedAsLost(app, scene)
  expect(await readWholeHistory(app, scene.groupId)).toEqual([...everyMessage, ...sent])
  await app.core.stop()
  // Sent, or told as lost: either way nothing waits any more.
  expect(await keptOutbox(scene.dataDir, scene.ada.id)).toEqual([])

  scene.proxy.cut()
  const offline = launchAppOnDisk(scene.proxy.origin, cleanups, scene.dataDir)
  await offline.core.start()
  expect(await offline.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: scene.ada.id } })
  await offline.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scene.groupId))
  const opened = await offline.call('conversations:open', { conversationId: scene.groupId })
  expect(opened.messages.at(-1)?.text).toBe(outcome === 'kept' ? 'written before the damage' : `history ${HISTORY_LENGTH}`)
  expect(offline.events.all('storage:notice')).toEqual([])
  expect(setAsideFiles(scene)).toHaveLength(1)
}

/** Waits for the message written before the damage to reach the service, and checks it did so once. */
async function sentOnce(app: AppHarness<TokenVault, Preferences>, scene: Scene): Promise<string[]> {
  await app.events.waitFor('messages:received', (message) => message.text === 'written before the damage', 15_000)
  expect((await serviceTexts(scene)).filter((text) => text === 'written before the damage')).toHaveLength(1)
  return ['written before the damage']
}

/**
 * The message written before the damage went with the store that could not be read: the notice
 * named it, and now it neither waits in the outbox nor reaches the service (nothing sends a text
 * the app no longer has, nor pretends to).
 */
async function namedAsLost(app: AppHarness<TokenVault, Preferences>, scene: Scene): Promise<string[]> {
  const outbox = app.events.all('outbox:changed').filter((change) => change.conversationId === scene.groupId)
  for (const change of outbox) expect(change.pending.map((message) => message.clientId)).not.toContain('before-damage')
  expect(await serviceTexts(scene)).not.toContain('written before the damage')
  return []
}

const restarted = (app: AppHarness<TokenVault, Preferences>): Promise<void> => app.core.start()

describe('a damaged store', () => {
  it('that is not a database at all', async () => {
    const scene = await keptThenStopped()
    writeFileSync(storeFile(scene, 'db'), Buffer.alloc(64 * 1024, 'not a database '))
    await startsAndCarriesOn(scene, 'lost', restarted)
  })

  it('cut short', async () => {
    const scene = await keptThenStopped()
    truncateSync(storeFile(scene, 'db'), Math.floor(statSync(storeFile(scene, 'db')).size / 3))
    await startsAndCarriesOn(scene, 'lost', restarted)
  })

  it('with a byte flipped in one of its pages, which its integrity check finds', async () => {
    const scene = await keptThenStopped()
    const bytes = readFileSync(storeFile(scene, 'db'))
    expect(bytes.length).toBeGreaterThan(16 * 4096)
    // In the last page but one: a page of messages, well past the schema.
    flipByte(bytes, bytes.length - 4096 - 100)
    writeFileSync(storeFile(scene, 'db'), bytes)
    await startsAndCarriesOn(scene, 'kept', restarted)
  })

  it('with a byte flipped in one of its pages, while the service is out of reach: the store serves what it can read before its check sets it aside', async () => {
    const scene = await keptThenStopped()
    const bytes = readFileSync(storeFile(scene, 'db'))
    flipByte(bytes, bytes.length - 4096 - 100)
    writeFileSync(storeFile(scene, 'db'), bytes)
    scene.proxy.cut()
    const app = launchAppOnDisk(scene.proxy.origin, cleanups, scene.dataDir)
    await app.core.start()
    // With the service out of reach, the list can only have come from the damaged store: it opened and served.
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === scene.groupId))
    await app.events.waitFor('storage:notice', () => true)
    expect(app.events.all('storage:notice')).toEqual([{ text: SET_ASIDE_NOTICE }])
    expect(setAsideFiles(scene)).toHaveLength(1)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: scene.ada.id } })

    // The service back, the app carries on from it: what waited goes once, the history is read again.
    scene.proxy.restore()
    await app.events.waitFor('push:status', (status) => status === 'connected', 45_000)
    await sentOnce(app, scene)
    expect(await readWholeHistory(app, scene.groupId)).toEqual([...everyMessage, 'written before the damage'])
    await app.core.stop()
    expect(await keptOutbox(scene.dataDir, scene.ada.id)).toEqual([])
    expect(app.events.all('storage:notice')).toHaveLength(1)
  })

  it('whose key was replaced by another', async () => {
    const scene = await keptThenStopped()
    writeFileSync(storeFile(scene, 'key'), 'ab'.repeat(32))
    await startsAndCarriesOn(scene, 'lost', restarted)
  })

  it('whose key file is spoilt, told at the sign-in that follows', async () => {
    const scene = await keptThenStopped()
    writeFileSync(storeFile(scene, 'key'), 'not a key')
    rmSync(join(scene.dataDir, TOKEN_FILE_NAME))
    await startsAndCarriesOn(scene, 'lost', async (app) => {
      await app.core.start()
      expect(await app.call('session:get', {})).toMatchObject({ status: 'signedOut' })
      await signInThroughSms(app, scene.service, scene.ada)
    })
  })
})

describe('an undamaged store', () => {
  it('opens again with nothing to tell', async () => {
    const scene = await keptThenStopped()
    expect(existsSync(storeFile(scene, 'db'))).toBe(true)
    const app = launchAppOnDisk(scene.proxy.origin, cleanups, scene.dataDir)
    await app.core.start()
    await sentOnce(app, scene)
    // Its check begins a few seconds after it opened, and reads a small file in well under two more.
    await new Promise((resolve) => setTimeout(resolve, CHECK_AFTER_MS + 2_000))
    expect(app.events.all('storage:notice')).toEqual([])
    expect(setAsideFiles(scene)).toEqual([])
  })
})

describe('a damaged store in browser mode\'s host process', () => {
  it('is told to the page that opens after a restart', async () => {
    const service = await serviceFor()
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-damage-cli-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const ada = await service.signUp({ name: 'Ada' })
    const groupId = String((await service.createGroup(ada, { name: 'Quarry' })).id)
    await service.sendGroupMessage(ada, groupId, 'kept before the damage')
    const start = async (): Promise<BrowserCli> => {
      const cli = await startBrowserCli(['--service-origin', service.origin, '--data-dir', dataDir, '--port', '0'], {
        ...environmentWithoutParley(),
        PARLEY_VERIFY_TOKEN: service.attestationSecret
      })
      cleanups.push(() => cli.stop())
      expect(await cli.invoke('app:ready', {})).toEqual({ ok: true, value: null })
      return cli
    }
    const listed = (list: { id: string }[]): boolean => list.some((conversation) => conversation.id === groupId)

    const first = await start()
    const signedIn = await first.invoke('session:signIn', { username: ada.email, password: ada.password })
    if (signedIn.ok && (signedIn.value as { status: string }).status === 'verificationRequired') {
      await first.invoke('session:sendCode', {})
      expect(await first.invoke('session:confirmCode', { code: await service.lastPin(ada.phoneNumber) })).toMatchObject({ ok: true })
    }
    await first.event('conversations:changed', listed)
    await first.stop()
    writeFileSync(join(dataDir, 'store', `${ada.id}.db`), Buffer.alloc(64 * 1024, 'not a database '))

    const second = await start()
    expect(await second.event('storage:notice')).toEqual({ text: SET_ASIDE_NOTICE })
    await second.event('conversations:changed', listed)
    expect(await second.event('session:changed')).toMatchObject({ status: 'signedIn', me: { id: ada.id } })
  })
})

function flipByte(bytes: Buffer, at: number): void {
  bytes.writeUInt8(bytes.readUInt8(at) ^ 0x5a, at)
}
