// The export's steps with the store and service played by simple stand-ins: what is not kept is
// fetched first, page by page into the flow; then the file is written from the store in slices, to
// the host's file or to the page in pieces; Cancel stops either step.
import { describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { ExportProgress } from '@shared/conversation-files'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import { compareIds } from '@shared/conversation-id'
import { AppError } from './app-error'
import { EXPORT_SLICE, Exporter, fileName, type ExporterDependencies } from './exports'
import type { HistoryPage } from './message-flow'
import type { ExportFile, HistoryStart, KeptPicture, LocalStore } from './ports'

const GROUP = 'g7' as ConversationId
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

const conversation: Conversation = {
  id: GROUP,
  kind: 'group',
  name: 'Book <club>',
  avatarUrl: null,
  lastMessagePreview: null,
  lastActivityAt: 0,
  unreadCount: 0,
  mute: null,
  messageCount: 1200
} as unknown as Conversation

function message(n: number, extra: Partial<Message> = {}): Message {
  return {
    id: String(1000 + n),
    conversationId: GROUP,
    sourceGuid: `guid-${n}`,
    senderId: '7',
    senderName: 'Grace',
    senderAvatarUrl: null,
    text: `Message ${n}`,
    attachments: [],
    createdAt: 1_700_000_000 + n,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...extra
  }
}

/** The service's whole history and the store's copy of some of it, with the flow between them. */
class Scene {
  readonly all: Message[]
  readonly kept = new Map<string, Message>()
  start: HistoryStart | undefined
  readonly pages: HistoryPage[] = []
  readonly progress: ExportProgress[] = []
  readonly chunks: string[] = []
  readonly asked: string[] = []

  constructor(total: number, keptNewest: number) {
    this.all = Array.from({ length: total }, (_, n) => message(n))
    for (const kept of this.all.slice(total - keptNewest)) this.kept.set(kept.id, kept)
    const oldest = this.all[total - keptNewest]
    this.start = keptNewest === 0 || oldest === undefined ? undefined : { oldestId: oldest.id, reachesStart: keptNewest === total }
  }

  store(): LocalStore {
    const sorted = (): Message[] => [...this.kept.values()].sort((a, b) => compareIds(a.id, b.id))
    return {
      historyStarts: async () => new Map(this.start === undefined ? [] : [[GROUP, this.start]]),
      messageCount: async () => this.kept.size,
      pollsOf: async () => [],
      messagesFrom: async (_id: ConversationId, afterId: string | null, limit: number) =>
        sorted()
          .filter((kept) => afterId === null || compareIds(kept.id, afterId) > 0)
          .slice(0, limit)
    } as Partial<LocalStore> as LocalStore
  }

  deps(overrides: Partial<ExporterDependencies> = {}): ExporterDependencies {
    const store = this.store()
    return {
      service: {
        latestMessages: async (_id, limit) => {
          this.asked.push('latest')
          return this.all.slice(-limit)
        },
        messagesBefore: async (_id, beforeId, limit) => {
          this.asked.push(`before ${beforeId}`)
          const older = this.all.filter((candidate) => compareIds(candidate.id, beforeId) < 0)
          return older.slice(Math.max(0, older.length - limit))
        }
      },
      flow: {
        paged: (page) => {
          this.pages.push(page)
          for (const paged of page.messages) this.kept.set(paged.id, paged)
        }
      },
      store: () => store,
      settled: async () => undefined,
      conversation: (id) => {
        if (id !== GROUP) throw new AppError('NOT_FOUND', 'No such conversation.')
        return conversation
      },
      picture: async (): Promise<KeptPicture | null> => ({ contentType: 'image/png', bytes: PNG }),
      progress: (progress) => this.progress.push(progress),
      chunk: (_exportId, text) => this.chunks.push(text),
      timers: { after: (_delay, task) => (setTimeout(task, 0), () => undefined) },
      now: () => Date.UTC(2026, 10, 27, 12),
      intervalMs: 0,
      ...overrides
    }
  }
}

/** A file kept in memory, for the host's part. */
function memoryFile(): ExportFile & { text: string; state: 'open' | 'closed' | 'discarded' } {
  const file = {
    name: 'chosen.html',
    text: '',
    state: 'open' as 'open' | 'closed' | 'discarded',
    write: async (text: string) => {
      file.text += text
    },
    close: async () => {
      file.state = 'closed'
    },
    discard: async () => {
      file.state = 'discarded'
    }
  }
  return file
}

describe('exporting a conversation', () => {
  it('fetches what is not kept first, page by page from the oldest kept back to an empty page, then writes every message to the page in pieces', async () => {
    const scene = new Scene(1200, 50)
    const exporter = new Exporter(scene.deps())
    const result = await exporter.start('e1', GROUP, 'html')

    expect(result).toEqual({ status: 'saved', fileName: 'Book club 2026-11-27.html', messages: 1200, toPage: true })
    expect(scene.asked[0]).toBe(`before ${scene.all[1150]?.id}`)
    expect(scene.asked).toHaveLength(13)
    expect(scene.pages.every((page) => page.end === 'older')).toBe(true)
    expect(scene.pages.at(-1)).toMatchObject({ messages: [], atStart: true })
    const html = scene.chunks.join('')
    for (const written of scene.all) expect(html).toContain(`>${written.text}</p>`)
    expect(html.indexOf('>Message 0</p>')).toBeLessThan(html.indexOf('>Message 1199</p>'))
    expect(html).toContain('<title>Book &lt;club&gt;</title>')
    expect(html.toLowerCase()).not.toContain('<script')
    // Written a slice at a time, saying how far.
    expect(scene.chunks.length).toBeGreaterThan(1)
    const writing = scene.progress.filter((progress) => progress.phase === 'writing')
    expect(writing.map((progress) => progress.done)).toEqual([0, EXPORT_SLICE, 2 * EXPORT_SLICE, 1200])
    expect(scene.progress[0]).toMatchObject({ exportId: 'e1', phase: 'fetching', total: 1200 })
  })

  it('fetches nothing when the store keeps the whole history, and the newest page first when it keeps none', async () => {
    const whole = new Scene(30, 30)
    await new Exporter(whole.deps()).start('e1', GROUP, 'json')
    expect(whole.asked).toEqual([])

    const none = new Scene(30, 0)
    const result = await new Exporter(none.deps()).start('e2', GROUP, 'json')
    expect(none.asked).toEqual(['latest', 'before 1000'])
    expect(none.pages[0]).toMatchObject({ end: 'newest', before: null })
    expect(result).toMatchObject({ status: 'saved', messages: 30 })
  })

  it('writes JSON that parses: the conversation, and every message as the store keeps it, oldest first', async () => {
    const scene = new Scene(1100, 1100)
    const file = memoryFile()
    const result = await new Exporter(scene.deps({ files: { create: async () => file } })).start('e1', GROUP, 'json')
    expect(result).toEqual({ status: 'saved', fileName: 'chosen.html', messages: 1100, toPage: false })
    expect(file.state).toBe('closed')
    expect(scene.chunks).toEqual([])
    const parsed = JSON.parse(file.text) as { format: string; conversation: Conversation; messages: Message[] }
    expect(parsed.format).toBe('parley-conversation-export')
    expect(parsed.conversation.name).toBe('Book <club>')
    expect(parsed.messages).toEqual(scene.all)
  })

  it('embeds each picture once fetched, and says so where one could not be had', async () => {
    const scene = new Scene(2, 2)
    const withPictures = message(5, { attachments: [{ type: 'image', url: 'https://i.example/a' }, { type: 'image', url: 'https://i.example/gone' }] })
    scene.kept.set(withPictures.id, withPictures)
    const asked: string[] = []
    const picture = async (url: string): Promise<KeptPicture | null> => {
      asked.push(url)
      return url.endsWith('gone') ? null : { contentType: 'image/png', bytes: PNG }
    }
    await new Exporter(scene.deps({ picture })).start('e1', GROUP, 'html')
    const html = scene.chunks.join('')
    expect(html).toContain(`src="data:image/png;base64,${Buffer.from(PNG).toString('base64')}"`)
    expect(html).toContain('A picture that could not be saved.')
    expect(asked.sort()).toEqual(['https://i.example/a', 'https://i.example/gone'])
  })

  it('is cancelled while fetching: nothing more is asked and no file is made', async () => {
    const scene = new Scene(1200, 50)
    let exporter: Exporter | null = null
    const deps = scene.deps({
      files: {
        create: async () => {
          throw new Error('no file may be made')
        }
      },
      progress: (progress) => {
        scene.progress.push(progress)
        if (scene.progress.length === 2) exporter?.cancel('e1')
      }
    })
    exporter = new Exporter(deps)
    expect(await exporter.start('e1', GROUP, 'html')).toEqual({ status: 'cancelled' })
    expect(scene.asked).toHaveLength(2)
  })

  it('is cancelled while writing: what was written goes', async () => {
    const scene = new Scene(1200, 1200)
    const file = memoryFile()
    let exporter: Exporter | null = null
    exporter = new Exporter(
      scene.deps({
        files: { create: async () => file },
        progress: (progress) => {
          if (progress.phase === 'writing' && progress.done > 0) exporter?.cancel('e1')
        }
      })
    )
    expect(await exporter.start('e1', GROUP, 'html')).toEqual({ status: 'cancelled' })
    expect(file.state).toBe('discarded')
  })

  it('stops every export under way at sign-out', async () => {
    const scene = new Scene(1200, 50)
    let exporter: Exporter | null = null
    exporter = new Exporter(
      scene.deps({
        progress: () => exporter?.cancelAll()
      })
    )
    const [first, second] = await Promise.all([exporter.start('e1', GROUP, 'html'), exporter.start('e2', GROUP, 'json')])
    expect([first, second]).toEqual([{ status: 'cancelled' }, { status: 'cancelled' }])
  })

  it('saves nothing when no place to save was chosen, and refuses a conversation not the user’s', async () => {
    const scene = new Scene(10, 10)
    expect(await new Exporter(scene.deps({ files: { create: async () => null } })).start('e1', GROUP, 'html')).toEqual({ status: 'cancelled' })
    await expect(new Exporter(scene.deps()).start('e2', 'g999' as ConversationId, 'html')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('waits and asks again while the service is busy, and gives up on another failure', async () => {
    const scene = new Scene(150, 50)
    const deps = scene.deps()
    let refusals = 2
    const busy = new Exporter({
      ...deps,
      firstBackoffMs: 0,
      service: {
        ...deps.service,
        messagesBefore: async (...args) => {
          if (refusals-- > 0) throw new AppError('RATE_LIMITED', 'Busy.')
          return deps.service.messagesBefore(...args)
        }
      }
    })
    expect(await busy.start('e1', GROUP, 'json')).toMatchObject({ status: 'saved', messages: 150 })

    const refused = new Exporter({ ...deps, service: { ...deps.service, messagesBefore: async () => Promise.reject(new AppError('FORBIDDEN', 'No.')) } })
    await expect(refused.start('e2', GROUP, 'json')).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})

describe('the file’s name', () => {
  it('is the conversation’s, without what file systems refuse or what reorders text, and the day', () => {
    const now = Date.UTC(2026, 0, 2)
    expect(fileName({ ...conversation, name: 'a/b\\c:d*e?"f<g>h|i' }, 'html', now)).toBe('abcdefghi 2026-01-02.html')
    expect(fileName({ ...conversation, name: '\u202Egnp.exe' }, 'json', now)).toBe('gnp.exe 2026-01-02.json')
    expect(fileName({ ...conversation, name: '...' }, 'json', now)).toBe('conversation 2026-01-02.json')
  })
})
