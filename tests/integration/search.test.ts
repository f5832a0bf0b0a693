// Search over the messages kept on this device, through the app core against the real service and
// a real encrypted store: what the history download brought, far older than any page ever shown,
// is found by a word, with what was searched said beside it.
import { describe, expect, it } from 'vitest'
import { testScope } from '../support/app-harness'
import { keptDevice, signedInOnDevice } from '../support/kept-device'

const scope = testScope()

/** Three pages of the service's largest, the oldest few far beyond what a conversation shows first. */
const HISTORY = Array.from({ length: 260 }, (_, index) => `walk ${index + 1}`)
HISTORY[2] = 'the zanzibarquokka waits at the old café'
HISTORY[3] = '我们明天去爬山'
HISTORY[4] = '<img src=x onerror=alert(1)> zanzibar'

describe('searching what this device keeps', () => {
  it('finds a message from far back in the history download by a word, newest first, with its snippet marked', async () => {
    const device = await keptDevice(scope, HISTORY)
    const app = await signedInOnDevice(scope, device)
    // Never opened: the download alone brings it.
    await app.events.waitFor('storage:progress', (download) => download.state === 'done', 30_000)

    const found = await app.call('search:messages', { query: 'zanzibarq' })
    expect(found.hits).toHaveLength(1)
    const [hit] = found.hits
    expect(hit).toMatchObject({ conversationId: device.groupId, senderId: device.ada.id, senderName: 'Ada' })
    expect(hit?.snippet.marks.map(({ start, end }) => hit.snippet.text.slice(start, end))).toEqual(['zanzibarquokka'])
    expect(found.scope).toEqual({ messages: HISTORY.length, oldestAt: expect.any(Number), history: 'complete', conversationsPartial: 0 })
    expect(found.notes).toEqual([])
    expect(found.searched).toBe(true)

    // The message is the one the service holds, far older than the first page.
    const opened = await app.call('conversations:open', { conversationId: device.groupId })
    expect(opened.messages.some((message) => message.id === hit?.messageId)).toBe(false)

    expect((await app.call('search:messages', { query: 'cafe' })).hits.map((h) => h.messageId)).toEqual([hit?.messageId])
    expect((await app.call('search:messages', { query: '爬山' })).hits).toHaveLength(1)
    expect((await app.call('search:messages', { query: `zanzibar in:quarry from:me after:2000-01-01` })).hits).toHaveLength(2)
    const hostile = await app.call('search:messages', { query: 'onerror' })
    expect(hostile.hits[0]?.snippet.text).toBe('<img src=x onerror=alert(1)> zanzibar')

    // Many matches come a page at a time, newest first.
    const pages: string[] = []
    let after: string | undefined
    for (;;) {
      const page = await app.call('search:messages', { query: 'walk', ...(after === undefined ? {} : { after }) })
      pages.push(...page.hits.map((h) => h.snippet.text))
      if (page.next === null) break
      after = page.next
    }
    expect(pages).toEqual(HISTORY.filter((text) => text.startsWith('walk ')).reverse())
  })

  it('reads a query leniently and says how, and refuses no one signed in', async () => {
    const device = await keptDevice(scope, ['one kept'])
    const app = await signedInOnDevice(scope, device)
    const result = await app.call('search:messages', { query: 'before:someday in:nowhere "one kep' })
    expect(result.hits).toEqual([])
    expect(result.notes.map((note) => note.kind)).toEqual(['badDate', 'unclosedQuote', 'noSuchConversation'])
    await app.call('session:signOut', {})
    await expect(app.call('search:messages', { query: 'one' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })
})
