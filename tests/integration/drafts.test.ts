// Drafts against the real service and a real store on disk: what Ada was writing (text and an
// uploaded picture) comes back in the next run of the app from her store, never in plain text on
// the disk; one sent is gone in the next run; and a store that can take no more (SQLite's own
// SQLITE_FULL) still leaves every draft in the app for the run, told once.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import { WRITE_FAILED_NOTICE } from '../../src/main/core/store-keeper'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { quietLog } from '../support/memory-platform'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { groupOnDisk, type GroupOnDisk } from '../support/group-on-disk'

const scope = testScope()
const { cleanups } = scope

type App = AppHarness<TokenVault, Preferences>

type Scene = GroupOnDisk

const scene = (): Promise<Scene> => groupOnDisk(scope, 'drafts')

async function firstRun({ service, dataDir, ada, groupId }: Scene, options: Parameters<typeof launchAppOnDisk>[3] = {}): Promise<App> {
  const app = launchAppOnDisk(service.origin, cleanups, dataDir, options)
  await signInThroughSms(app, service, ada)
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
  return app
}

function redSquare(): Uint8Array {
  const bitmap = blankBitmap(8, 8)
  for (let x = 0; x < 8; x += 1) for (let y = 0; y < 8; y += 1) setPixel(bitmap, x, y, [220, 30, 30, 255])
  return new Uint8Array(encodePng(bitmap))
}

const PICTURE_ID = 'b7d1c3c2-5c5e-4c53-9d43-1f0e4c1d2a10'

describe('drafts', () => {
  it('come back in the next run from the store, never readable on the disk, and one sent does not', async () => {
    const world = await scene()
    const app = await firstRun(world)
    const { url } = await app.call('uploads:start', { uploadId: 'upload-draft-1', contentType: 'image/png', bytes: redSquare() })
    const picture = { id: PICTURE_ID, name: 'otter-at-the-quarry.png', contentType: 'image/png' as const, url }
    await app.call('drafts:keep', { conversationId: world.groupId, text: 'the otter sleeps 4f1c', pictures: [picture] })
    await app.core.stop()

    const next = launchAppOnDisk(world.service.origin, cleanups, world.dataDir)
    await next.core.start()
    expect(await next.call('drafts:list', {})).toEqual([{ conversationId: world.groupId, text: 'the otter sleeps 4f1c', pictures: [picture], savedAt: expect.any(Number) }])
    const store = join(world.dataDir, 'store')
    for (const name of readdirSync(store).filter((entry) => statSync(join(store, entry)).isFile())) {
      const bytes = readFileSync(join(store, name))
      expect(bytes.includes(Buffer.from('otter sleeps')), name).toBe(false)
      expect(bytes.includes(Buffer.from('otter-at-the-quarry')), name).toBe(false)
    }

    // Sent: the page empties the draft as main takes the message.
    await next.call('messages:send', { conversationId: world.groupId, text: 'the otter sleeps 4f1c', clientId: 'draft-sent-1', attachments: [{ type: 'image', url }] })
    await next.call('drafts:keep', { conversationId: world.groupId, text: '', pictures: [] })
    await next.events.waitFor('messages:received', (message) => message.sourceGuid === 'draft-sent-1')
    await next.core.stop()

    const third = launchAppOnDisk(world.service.origin, cleanups, world.dataDir)
    await third.core.start()
    expect(await third.call('drafts:list', {})).toEqual([])
  })

  it('stay in the app for the run when the store can take no more, and the person is told once', async () => {
    const world = await scene()
    const directory = join(world.dataDir, 'store')
    // Room for the store as it opens, and little more: long drafts soon find the disk full.
    const maxPages = (await pagesOfAnEmptyStore()) + 3
    const app = await firstRun(world, { stores: new FileLocalStores({ directory, sealing: PLAIN_FILE, log: quietLog, maxPages }) })
    // Long drafts in one conversation after another, until the store is full: each one still in the app.
    const written: string[] = []
    for (let n = 1; n <= 10 && app.events.all('storage:notice').length === 0; n += 1) {
      const text = `Draft ${n}, written on a full disk. ${'Nothing typed is lost. '.repeat(800)}`
      await app.call('drafts:keep', { conversationId: n === 1 ? world.groupId : String(9000 + n), text, pictures: [] })
      written.push(text)
    }
    await app.events.waitFor('storage:notice', (notice) => notice.text === WRITE_FAILED_NOTICE)
    await app.call('drafts:keep', { conversationId: world.groupId, text: 'And typed on after the notice.', pictures: [] })
    const kept = (await app.call('drafts:list', {})).map((draft) => draft.text)
    expect(kept.sort()).toEqual(['And typed on after the notice.', ...written.slice(1)].sort())
    expect(app.events.all('storage:notice')).toEqual([{ text: WRITE_FAILED_NOTICE }])
  })
})

/** How many pages a new, empty store takes. */
async function pagesOfAnEmptyStore(): Promise<number> {
  const directory = mkdtempSync(join(tmpdir(), 'parley-empty-store-'))
  try {
    const { store } = await new FileLocalStores({ directory, sealing: PLAIN_FILE, log: quietLog }).open('1')
    await store.close()
    return statSync(join(directory, '1.db')).size / 4096
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
