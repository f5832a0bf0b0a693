import { describe, expect, it, vi } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import { MessageFlow } from './message-flow'
import { PictureKeeper } from './picture-keeper'
import type { KeptPicture, PictureCache } from './ports'

const GROUP = 'g1' as ConversationId
const SERVICE = 'https://image.example.com'
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

function png(marker: number): KeptPicture {
  return { contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, marker]) }
}

function message(id: number, urls: string[], createdAt = 1_700_000_000 + id): Message {
  return {
    id: String(id),
    conversationId: GROUP,
    sourceGuid: `guid-${id}`,
    senderId: 'u2',
    senderName: 'Grace',
    senderAvatarUrl: null,
    text: '',
    attachments: urls.map((url) => ({ type: 'image' as const, url })),
    createdAt,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

/** A cache in memory that keeps everything, remembering when each was said to be used. */
class MemoryCache implements PictureCache {
  readonly kept = new Map<string, { picture: KeptPicture; usedAt: number }>()
  limit = 0
  full = false
  has = (url: string): boolean => this.kept.has(url)
  read = async (url: string): Promise<KeptPicture | null> => this.kept.get(url)?.picture ?? null
  wouldKeep = (): boolean => !this.full
  keep = async (url: string, picture: KeptPicture, usedAt: number): Promise<boolean> => {
    this.kept.set(url, { picture, usedAt })
    return true
  }
  setLimit = async (bytes: number): Promise<void> => {
    this.limit = bytes
  }
  usage = () => ({ bytes: this.kept.size, limitBytes: this.limit, pictures: this.kept.size })
  close = async (): Promise<void> => undefined
}

/** Downloads that wait until the test lets each one finish. */
function heldDownloads() {
  const waiting = new Map<string, (picture: KeptPicture | Error) => void>()
  const asked: string[] = []
  const download = (url: string): Promise<KeptPicture> => {
    asked.push(url)
    return new Promise((resolve, reject) => waiting.set(url, (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome))))
  }
  const finish = async (url: string, outcome: KeptPicture | Error): Promise<void> => {
    waiting.get(url)?.(outcome)
    waiting.delete(url)
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
  return { download, asked, finish, get underWay() {
    return [...waiting.keys()]
  } }
}

function setUp(cache: MemoryCache | null = new MemoryCache()) {
  const flow = new MessageFlow(() => undefined)
  const downloads = heldDownloads()
  const keeper = new PictureKeeper({ flow, cache: () => cache, download: downloads.download, origins: () => [SERVICE], limitMb: 500, log, now: () => 1_800_000_000_000 })
  const page = (messages: Message[]) => flow.paged({ conversationId: GROUP, messages, end: 'newest', before: null, after: null, atStart: true })
  return { flow, downloads, keeper, cache, page }
}

describe('the picture keeper', () => {
  it('fetches the pictures of messages read, two at a time and newest first, and keeps each as used when its message was written', async () => {
    const { downloads, cache, page } = setUp()
    page([message(1, [`${SERVICE}/1.png`]), message(2, [`${SERVICE}/2.png`]), message(3, [`${SERVICE}/3.png`, `${SERVICE}/3b.png`])])

    expect(downloads.underWay).toEqual([`${SERVICE}/3.png`, `${SERVICE}/3b.png`])
    await downloads.finish(`${SERVICE}/3.png`, png(3))
    expect(downloads.underWay).toEqual([`${SERVICE}/3b.png`, `${SERVICE}/2.png`])
    await downloads.finish(`${SERVICE}/3b.png`, new Error('expired'))
    await downloads.finish(`${SERVICE}/2.png`, png(2))
    await downloads.finish(`${SERVICE}/1.png`, png(1))

    expect([...(cache?.kept.keys() ?? [])]).toEqual([`${SERVICE}/3.png`, `${SERVICE}/2.png`, `${SERVICE}/1.png`])
    expect(cache?.kept.get(`${SERVICE}/2.png`)?.usedAt).toBe((1_700_000_000 + 2) * 1000)
  })

  it('fetches nothing from an origin the page may not load pictures from, nothing kept already, and nothing the cache would not keep', async () => {
    const { downloads, cache, page, flow } = setUp()
    cache?.kept.set(`${SERVICE}/kept.png`, { picture: png(0), usedAt: 0 })
    page([message(1, ['https://tracker.example.test/pixel.gif', `${SERVICE}/kept.png`])])
    flow.arrive({ ...message(2, [`${SERVICE}/deleted.png`]), deleted: true }, 'pushed')
    if (cache !== null) cache.full = true
    flow.arrive(message(3, [`${SERVICE}/old.png`]), 'pushed')
    expect(downloads.asked).toEqual([])
  })

  it("keeps each sender's avatar as used when their message was written, and the list's avatars as used now", async () => {
    const { downloads, cache, page, keeper } = setUp()
    page([{ ...message(1, []), senderAvatarUrl: `${SERVICE}/grace.png` }, { ...message(2, [], 1_700_000_002), senderAvatarUrl: `${SERVICE}/grace.png`, deleted: true }])
    keeper.keepAvatars([`${SERVICE}/ridge.png`, null, 'https://tracker.example.test/face.gif'])

    expect(downloads.asked).toEqual([`${SERVICE}/grace.png`, `${SERVICE}/ridge.png`])
    await downloads.finish(`${SERVICE}/grace.png`, png(2))
    await downloads.finish(`${SERVICE}/ridge.png`, png(1))
    // A deleted message's sender still has a face; the newest message they wrote dates it.
    expect(cache?.kept.get(`${SERVICE}/grace.png`)?.usedAt).toBe(1_700_000_002_000)
    expect(cache?.kept.get(`${SERVICE}/ridge.png`)?.usedAt).toBe(1_800_000_000_000)
  })

  it('fetches the pictures of messages pushed and replaced, once each', async () => {
    const { downloads, flow } = setUp()
    flow.arrive(message(1, [`${SERVICE}/a.png`]), 'pushed')
    flow.changed({ kind: 'replaced', message: message(1, [`${SERVICE}/a.png`]) })
    expect(downloads.asked).toEqual([`${SERVICE}/a.png`])
  })

  it("answers the page with the kept picture, or fetches (and keeps) one the cache let go of, sharing a fetch under way", async () => {
    const { downloads, keeper, cache, flow } = setUp()
    cache?.kept.set(`${SERVICE}/kept.png`, { picture: png(9), usedAt: 0 })
    expect(await keeper.serve(`${SERVICE}/kept.png`)).toEqual(png(9))

    flow.arrive(message(1, [`${SERVICE}/a.png`]), 'pushed')
    const served = keeper.serve(`${SERVICE}/a.png`)
    await downloads.finish(`${SERVICE}/a.png`, png(1))
    expect(await served).toEqual(png(1))
    expect(downloads.asked).toEqual([`${SERVICE}/a.png`])

    expect(await keeper.serve('https://tracker.example.test/pixel.gif')).toBeNull()
    const gone = keeper.serve(`${SERVICE}/gone.png`)
    await vi.waitFor(() => expect(downloads.underWay).toEqual([`${SERVICE}/gone.png`]))
    await downloads.finish(`${SERVICE}/gone.png`, new Error('404'))
    expect(await gone).toBeNull()
    expect(cache?.kept.get(`${SERVICE}/gone.png`)).toBeUndefined()
  })

  it('holds the cache to the limit the settings say, in bytes', async () => {
    const { keeper, cache } = setUp()
    expect(keeper.usage()).toMatchObject({ limitBytes: 500_000_000 })
    keeper.setLimit(100)
    expect(cache?.limit).toBe(100_000_000)
  })

  it('forgets what waited when told to, and does nothing while no cache is open', async () => {
    const { downloads, keeper, page } = setUp()
    page([1, 2, 3, 4].map((n) => message(n, [`${SERVICE}/${n}.png`])))
    keeper.clear()
    await downloads.finish(`${SERVICE}/4.png`, png(4))
    await downloads.finish(`${SERVICE}/3.png`, png(3))
    expect(downloads.asked).toEqual([`${SERVICE}/4.png`, `${SERVICE}/3.png`])

    const closed = setUp(null)
    closed.page([message(1, [`${SERVICE}/1.png`])])
    expect(closed.downloads.asked).toEqual([])
    expect(closed.keeper.usage()).toBeNull()
  })
})
