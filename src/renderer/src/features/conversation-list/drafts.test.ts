// Drafts as the person meets them, through the whole renderer against a fake main: the list says
// `Draft: …` for a conversation that keeps one (not for the one open), the composer holds it again,
// main is handed each change, and a save main refuses loses nothing typed.
import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Conversation } from '@shared/conversations'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const club = conversation({ id: 'g1', name: 'Book club', preview: { senderName: 'Grace', text: 'Chapter 4 tonight?', hasAttachments: false } })
const climbing = conversation({ id: 'g2', name: 'Climbing', preview: { senderName: 'Alan', text: 'Ropes checked', hasAttachments: false } })

function setUp(): FakeApi {
  const opened = (group: Conversation) => ({ conversation: group, messages: [], hasOlder: false, pending: [] })
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [club, climbing])
    .handle('conversations:open', ({ conversationId }) => ({ ok: true, value: opened(conversationId === 'g1' ? club : climbing) }))
    .returns('drafts:list', [{ conversationId: 'g1', text: 'Half a thought', pictures: [], savedAt: 1 }])
    .returns('drafts:keep', null)
}

const listed = (name: string) => screen.findByRole('button', { name: new RegExp(name) })
const messageBox = () => screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Message' })

async function type(text: string): Promise<void> {
  await fireEvent.input(await messageBox(), { target: { value: text } })
}

describe('drafts', () => {
  it('show as Draft: in the list for a conversation other than the open one, and come back in its composer', async () => {
    const fake = setUp()
    await startApp(fake)
    await waitFor(async () => expect(await listed('Book club')).toHaveTextContent('Draft: Half a thought'))
    expect(await listed('Book club')).toHaveAccessibleName(expect.stringContaining('Draft: Half a thought'))
    expect(await listed('Climbing')).toHaveTextContent('Alan: Ropes checked')

    await fireEvent.click(await listed('Book club'))
    await waitFor(async () => expect((await messageBox()).value).toBe('Half a thought'))
    // The open conversation's own entry shows its last message while the draft is written.
    expect(await listed('Book club')).toHaveTextContent('Grace: Chapter 4 tonight?')

    await type('Half a thought, and more')
    await fireEvent.click(await listed('Climbing'))
    // Moving on hands main the draft at once, without waiting for typing to rest.
    await waitFor(() => expect(fake.callsTo('drafts:keep')).toContainEqual({ conversationId: 'g1', text: 'Half a thought, and more', pictures: [] }))
    await waitFor(async () => expect(await listed('Book club')).toHaveTextContent('Draft: Half a thought, and more'))
  })

  it('fill the composer of the conversation opened again by itself before main answered, and are not erased by it', async () => {
    const fake = setUp().returns('conversations:leftOpen', { conversationId: 'g1' })
    const drafts = fake.holds('drafts:list')
    await startApp(fake)
    // The conversation left open is open again, its composer drawn, before main has told its drafts.
    expect((await messageBox()).value).toBe('')
    drafts.resolve([{ conversationId: 'g1', text: 'Half a thought', pictures: [], savedAt: 1 }])
    await waitFor(async () => expect((await messageBox()).value).toBe('Half a thought'))
    // Nothing was handed main over the draft it keeps: no empty save erased it.
    expect(fake.callsTo('drafts:keep')).toEqual([])
    await fireEvent.click(await listed('Climbing'))
    await waitFor(async () => expect(await listed('Book club')).toHaveTextContent('Draft: Half a thought'))
  })

  it('are forgotten in main as soon as the box is emptied', async () => {
    const fake = setUp()
    await startApp(fake)
    await fireEvent.click(await listed('Book club'))
    await waitFor(async () => expect((await messageBox()).value).toBe('Half a thought'))
    await type('')
    await waitFor(() => expect(fake.callsTo('drafts:keep')).toEqual([{ conversationId: 'g1', text: '', pictures: [] }]))
    await fireEvent.click(await listed('Climbing'))
    await waitFor(async () => expect(await listed('Book club')).toHaveTextContent('Grace: Chapter 4 tonight?'))
  })

  it('keep everything typed when main cannot take a save', async () => {
    const fake = setUp().fails('drafts:keep', 'INTERNAL', 'The store is full.')
    await startApp(fake)
    await fireEvent.click(await listed('Climbing'))
    await type('Typed while nothing could be kept')
    await fireEvent.click(await listed('Book club'))
    await waitFor(() => expect(fake.callsTo('drafts:keep')).toContainEqual({ conversationId: 'g2', text: 'Typed while nothing could be kept', pictures: [] }))
    await waitFor(async () => expect(await listed('Climbing')).toHaveTextContent('Draft: Typed while nothing could be kept'))
    await fireEvent.click(await listed('Climbing'))
    await waitFor(async () => expect((await messageBox()).value).toBe('Typed while nothing could be kept'))
  })

  it('hand main the text once typing rests, without a switch', async () => {
    const fake = setUp()
    await startApp(fake)
    await fireEvent.click(await listed('Climbing'))
    await type('Ropes')
    await type('Ropes and harnesses')
    await waitFor(() => expect(fake.callsTo('drafts:keep')).toEqual([{ conversationId: 'g2', text: 'Ropes and harnesses', pictures: [] }]))
  })

  it('never bring back a draft sent or erased while main was still answering with the kept ones', async () => {
    const fake = setUp()
    const kept = fake.holds('drafts:list')
    await startApp(fake)
    await fireEvent.click(await listed('Book club'))
    await type('Sent before the kept drafts came')
    await type('')
    kept.resolve([{ conversationId: 'g1', text: 'Half a thought', pictures: [], savedAt: 1 }])
    await fireEvent.click(await listed('Climbing'))
    await fireEvent.click(await listed('Book club'))
    await waitFor(async () => expect(await listed('Book club')).toHaveTextContent('Grace: Chapter 4 tonight?'))
    expect((await messageBox()).value).toBe('')
  })
})
