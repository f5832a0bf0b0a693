// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { escapeHtml, htmlHead, htmlMessage, htmlTail, type HtmlExportContext } from './export-html'

const GROUP = 'g1' as ConversationId
const HOSTILE = [
  `<script>alert(1)</script>`,
  `<img src=x onerror="alert(2)">`,
  `"><svg onload=alert(3)>`,
  `'><iframe srcdoc="<script>alert(4)</script>">`,
  `&lt;script&gt;alert(5)&lt;/script&gt;`,
  `<style>* { display: none }</style>`,
  `javascript:alert(6)`
]

const poll: Poll = {
  id: '9',
  conversationId: GROUP,
  subject: '<b>Lunch?</b>',
  ownerId: '7',
  expiresAt: 1_800_000_000,
  ended: true,
  multiple: false,
  anonymous: false,
  options: [
    { id: '1', title: 'Noodles', votes: 2, voters: [] },
    { id: '2', title: '<i>Tacos</i>', votes: 1, voters: [] }
  ],
  myVotes: [],
  canEnd: false
}

const context: HtmlExportContext = {
  conversation: { id: GROUP, name: `<script>alert('name')</script>` } as Conversation,
  exportedAt: Date.UTC(2026, 10, 27),
  polls: new Map([[poll.id, poll]])
}

function message(extra: Partial<Message>): Message {
  return {
    id: '1001',
    conversationId: GROUP,
    sourceGuid: 'guid',
    senderId: '7',
    senderName: 'Grace',
    senderAvatarUrl: null,
    text: 'Hello',
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...extra
  }
}

/** What these tests read of a parsed document (main's code is typed without the DOM). */
interface Node {
  readonly textContent: string | null
  readonly className: string
  getAttribute(name: string): string | null
  getAttributeNames(): string[]
  querySelector(selector: string): Node | null
  querySelectorAll(selector: string): ArrayLike<Node> & Iterable<Node>
}

/** The document the way a browser reads it (jsdom's parser), for what it would run or load. */
function parse(html: string): Node & { title: string } {
  const { DOMParser } = globalThis as unknown as { DOMParser: new () => { parseFromString(html: string, type: string): Node & { title: string } } }
  return new DOMParser().parseFromString(html, 'text/html')
}

describe('the HTML export', () => {
  it('escapes every character markup is made of', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;')
  })

  it('keeps hostile names and texts as text: nothing in the page runs, loads or styles', () => {
    const rows = HOSTILE.map((text, index) => htmlMessage(message({ id: String(2000 + index), text, senderName: text }), [], context))
    const html = htmlHead(context) + rows.join('') + htmlTail(rows.length)
    const page = parse(html)
    expect(page.querySelectorAll('script, iframe, svg, img, object, embed, link, base, meta[http-equiv="refresh"]')).toHaveLength(0)
    expect(page.querySelectorAll('style')).toHaveLength(1)
    expect([...page.querySelectorAll('*')].flatMap((element) => element.getAttributeNames().filter((name) => name.startsWith('on')))).toEqual([])
    expect([...page.querySelectorAll('.text')].map((text) => text.textContent)).toEqual(HOSTILE)
    expect([...page.querySelectorAll('.sender')].map((sender) => sender.textContent)).toEqual(HOSTILE)
    expect(page.title).toBe(`<script>alert('name')</script>`)
    // The file's own policy forbids any script, should anything ever be read as markup.
    expect(page.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toContain("default-src 'none'")
  })

  it('reads in light and dark, and shows right-to-left text right', () => {
    const html = htmlHead(context) + htmlMessage(message({ text: 'שלום עולם', senderName: 'דנה' }), [], context)
    expect(html).toContain('@media (prefers-color-scheme: dark)')
    const page = parse(html)
    expect(page.querySelector('.text')?.getAttribute('dir')).toBe('auto')
    expect(page.querySelector('.sender')?.getAttribute('dir')).toBe('auto')
  })

  it('shows the time, an edit, a pin, the reactions, a deletion, a poll, a place and pictures', () => {
    const page = parse(
      [
        htmlMessage(message({ editedAt: 1_700_000_600, pinnedAt: 1_700_000_700, reactions: [{ emoji: '❤️', userIds: ['1', '2'] }] }), [], context),
        htmlMessage(message({ id: '1002', deleted: true, text: '' }), [], context),
        htmlMessage(message({ id: '1003', text: '', attachments: [{ type: 'poll', pollId: '9' }] }), [], context),
        htmlMessage(message({ id: '1004', text: '', attachments: [{ type: 'location', lat: '51.5', lng: '-0.12', name: '<b>Here</b>' }] }), [], context),
        htmlMessage(message({ id: '1005', attachments: [{ type: 'image', url: 'https://i.example/a' }, { type: 'image', url: 'https://i.example/b' }] }), ['data:image/png;base64,AAAA', null], context),
        htmlMessage(message({ id: '1006', system: true, text: 'Grace joined' }), [], context)
      ].join('')
    )
    const [edited, deleted, withPoll, place, pictures, system] = [...page.querySelectorAll('li[id]')]
    expect(edited?.querySelector('time')?.getAttribute('datetime')).toBe('2023-11-14T22:13:20.000Z')
    expect(edited?.textContent).toContain('edited')
    expect(edited?.textContent).toContain('pinned')
    expect(edited?.querySelector('.reactions')?.textContent).toBe('❤️ 2')
    expect(deleted?.textContent).toContain('This message was deleted.')
    expect(withPoll?.querySelector('.poll')?.textContent).toBe('<b>Lunch?</b> (ended)Noodles: 2 votes<i>Tacos</i>: 1 vote')
    expect(place?.textContent).toContain('<b>Here</b> (51.5, -0.12)')
    expect([...(pictures?.querySelectorAll('img') ?? [])].map((img) => img.getAttribute('src'))).toEqual(['data:image/png;base64,AAAA'])
    expect(pictures?.textContent).toContain('A picture that could not be saved.')
    expect(system?.className).toBe('system')
    expect(system?.querySelector('.sender')).toBeNull()
  })
})
