// The message toolbar, reaction chips, the composer's edit mode and the two panels, driven through
// the whole renderer against a fake main, by role and name as a screen reader user would.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import { conversation, FakeApi, me, message } from '../../testing/fake-api'
import { layOutHistory } from '../../testing/history-layout'
import { LATEST_ROWS, STEP_ROWS } from '$lib/history-window'
import { startApp } from '../../testing/start-app'

const now = (): number => Math.floor(Date.now() / 1000)

function setUp(messages: Message[], group: Partial<Conversation> = {}): FakeApi {
  const lunch = conversation({ id: 'g1', name: 'Lunch club', myRole: 'user', ...group })
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [lunch])
    .returns('conversations:open', { conversation: lunch, messages, hasOlder: false, pending: [] })
}

async function open(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Lunch club/ }))
  return screen.findByRole('list', { name: 'Messages' })
}

function rowOf(history: HTMLElement, text: string): HTMLElement {
  const row = within(history)
    .getAllByRole('listitem')
    .find((item) => item.textContent?.includes(text))
  if (row === undefined) throw new Error(`no row with ${text}`)
  return row
}

function toolbarOf(history: HTMLElement, text: string): HTMLElement {
  return within(rowOf(history, text)).getByRole('toolbar', { name: 'Message actions' })
}

const mine = (text: string, overrides: Partial<Message> = {}): Message =>
  message({ conversationId: 'g1', text, senderId: me.id, senderName: me.name, createdAt: now() - 60, ...overrides })
const grace = (text: string, overrides: Partial<Message> = {}): Message => message({ conversationId: 'g1', text, createdAt: now() - 60, ...overrides })

describe('message actions', () => {
  it('offers React, Edit, Delete and Pin on your own recent message, and only React and Pin on someone else’s', async () => {
    const history = await open(setUp([grace('Noodles?'), mine('Yes please')]))
    const own = within(toolbarOf(history, 'Yes please'))
    expect(own.getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent?.trim())).toEqual([
      'React',
      'Edit',
      'Delete',
      'Pin'
    ])
    const theirs = within(toolbarOf(history, 'Noodles?'))
    expect(theirs.getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent?.trim())).toEqual(['React', 'Pin'])
  })

  it('offers the same actions on the rows above the view on opening, made when the page is idle or at once for the pointer', async () => {
    const texts = Array.from({ length: 60 }, (_, index) => `Early ${index}`)
    const history = await open(setUp([...texts.map((text) => grace(text)), mine('Newest mine')]))
    // The newest twenty rows, about what a window shows, have theirs from the start.
    expect(within(toolbarOf(history, 'Newest mine')).getByRole('button', { name: 'Edit' })).toBeInTheDocument()
    expect(within(toolbarOf(history, 'Early 41')).getByRole('button', { name: 'Pin' })).toBeInTheDocument()

    // The newest LATEST_ROWS are drawn on opening: the rows above the twenty, from the first drawn on, wait.
    const firstDrawn = texts.length + 1 - LATEST_ROWS
    const pointed = rowOf(history, `Early ${firstDrawn + 1}`)
    expect(within(pointed).queryByRole('toolbar')).toBeNull()
    await fireEvent.pointerEnter(pointed.querySelector('.message') ?? pointed)
    expect(within(toolbarOf(history, `Early ${firstDrawn + 1}`)).getByRole('button', { name: 'Pin' })).toBeInTheDocument()
    await waitFor(() => expect(within(toolbarOf(history, 'Early 40')).getByRole('button', { name: 'React' })).toBeInTheDocument(), { timeout: 20_000 })
    expect(within(toolbarOf(history, `Early ${firstDrawn}`)).getByRole('button', { name: 'Pin' })).toBeInTheDocument()
  }, 30_000)

  it('offers the same actions on rows drawn while scrolling up, on one the pointer comes to at once', async () => {
    const removeLayout = layOutHistory()
    try {
      const texts = Array.from({ length: 300 }, (_, index) => `Old ${index}`)
      const history = await open(setUp([...texts.map((text) => grace(text)), mine('Newest mine')]))
      const viewport = screen.getByRole('region', { name: 'Message history' })
      // The newest LATEST_ROWS are drawn on opening: from Old 277 to Old 299, and the newest.
      const firstDrawn = texts.length + 1 - LATEST_ROWS
      const lastOfBatch = `Old ${firstDrawn - 1}`
      expect(within(history).queryByText(lastOfBatch)).toBeNull()

      viewport.scrollTop = 0
      await fireEvent.scroll(viewport)
      await waitFor(() => expect(within(history).getByText(lastOfBatch)).toBeInTheDocument())
      // The rows of that batch put their toolbars off until the page is idle; the last of them is made last.
      const pointed = rowOf(history, lastOfBatch)
      expect(within(pointed).queryByRole('toolbar')).toBeNull()
      await fireEvent.pointerEnter(pointed.querySelector('.message') ?? pointed)
      expect(within(toolbarOf(history, lastOfBatch)).getByRole('button', { name: 'Pin' })).toBeInTheDocument()
      // The others get theirs when the page is idle, a few at a time (slowly in jsdom on a busy machine).
      await waitFor(() => expect(within(toolbarOf(history, `Old ${firstDrawn - 2}`)).getByRole('button', { name: 'Pin' })).toBeInTheDocument(), { timeout: 20_000 })
      expect(within(toolbarOf(history, `Old ${firstDrawn - STEP_ROWS}`)).getByRole('button', { name: 'React' })).toBeInTheDocument()
    } finally {
      removeLayout()
    }
  }, 30_000)

  it('takes Edit away when the 15 minutes end while the message is on screen', async () => {
    // A few seconds short of the end, so a slow start still finds Edit there.
    const history = await open(setUp([mine('Almost too late', { createdAt: now() - 15 * 60 + 4 })]))
    expect(within(toolbarOf(history, 'Almost too late')).getByRole('button', { name: 'Edit' })).toBeInTheDocument()
    await waitFor(() => expect(within(toolbarOf(history, 'Almost too late')).queryByRole('button', { name: 'Edit' })).toBeNull(), { timeout: 10_000 })
  }, 20_000)

  it('moves between the toolbar buttons with the arrow keys, Home and End', async () => {
    const history = await open(setUp([mine('Yes please')]))
    const toolbar = within(toolbarOf(history, 'Yes please'))
    const react = toolbar.getByRole('button', { name: 'React' })
    react.focus()
    await fireEvent.keyDown(react, { key: 'ArrowRight' })
    expect(toolbar.getByRole('button', { name: 'Edit' })).toHaveFocus()
    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'End' })
    expect(toolbar.getByRole('button', { name: 'Pin' })).toHaveFocus()
    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowRight' })
    expect(react).toHaveFocus()
    await fireEvent.keyDown(react, { key: 'ArrowLeft' })
    expect(toolbar.getByRole('button', { name: 'Pin' })).toHaveFocus()
    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Home' })
    expect(react).toHaveFocus()
  })

  it('offers no Edit after the 15 minutes, Delete to an admin, and nothing on a deleted message', async () => {
    const history = await open(
      setUp([mine('Old news', { createdAt: now() - 16 * 60 }), grace('Spam'), grace('Gone', { deleted: true, text: 'This message was deleted' })], {
        myRole: 'admin'
      })
    )
    expect(within(toolbarOf(history, 'Old news')).queryByRole('button', { name: 'Edit' })).toBeNull()
    expect(within(toolbarOf(history, 'Spam')).getByRole('button', { name: 'Delete' })).toBeInTheDocument()
    expect(within(rowOf(history, 'This message was deleted')).queryByRole('toolbar')).toBeNull()
  })

  it('reacts from the menu of the fifteen emoji, shows the chip pressed, and takes it back from the chip', async () => {
    const target = grace('Noodles?')
    const fake = setUp([target])
      .returns('messages:react', [{ emoji: '🎉', userIds: ['u2', me.id] }])
      .returns('messages:unreact', [{ emoji: '🎉', userIds: ['u2'] }])
    const history = await open(fake)
    await fireEvent.click(within(toolbarOf(history, 'Noodles?')).getByRole('button', { name: 'React' }))
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent?.trim())
    expect(items).toHaveLength(15)
    expect(items).toContain('❤️')
    await fireEvent.click(screen.getByRole('menuitem', { name: '🎉' }))
    expect(fake.callsTo('messages:react')).toEqual([{ conversationId: 'g1', messageId: target.id, emoji: '🎉' }])

    const chip = await within(rowOf(history, 'Noodles?')).findByRole('button', { name: '🎉 2' })
    expect(chip).toHaveAttribute('aria-pressed', 'true')
    expect(chip).toHaveAttribute('title', 'Grace Hopper, You')
    expect(chip).toHaveAccessibleDescription('Grace Hopper, You')

    await fireEvent.click(chip)
    expect(fake.callsTo('messages:unreact')).toEqual([{ conversationId: 'g1', messageId: target.id }])
    expect(await within(rowOf(history, 'Noodles?')).findByRole('button', { name: '🎉 1' })).toHaveAttribute('aria-pressed', 'false')
  })

  it('shows reactions, edits and deletions that main reports, in place', async () => {
    const target = grace('Noodles?')
    const fake = setUp([target])
    const history = await open(fake)
    fake.emit('messages:updated', { ...target, reactions: [{ emoji: '👍', userIds: ['u2'] }] })
    expect(await within(history).findByRole('button', { name: '👍 1' })).toHaveAttribute('aria-pressed', 'false')
    fake.emit('messages:updated', { ...target, text: 'Tacos?', editedAt: now() })
    expect(await within(history).findByText('Tacos?')).toBeInTheDocument()
    expect(within(history).getByText('(edited)')).toBeInTheDocument()
    fake.emit('messages:updated', { ...target, text: 'This message was deleted', deleted: true })
    expect(await within(history).findByText('This message was deleted')).toBeInTheDocument()
    // Another conversation's message changes nothing here.
    fake.emit('messages:updated', { ...target, conversationId: 'g2', text: 'Elsewhere' })
    expect(within(history).queryByText('Elsewhere')).toBeNull()
  })

  it('edits in the composer: Save sends the new text, Escape cancels, a refusal keeps the text and says why', async () => {
    const target = mine('Noodles at noon')
    const fake = setUp([target]).returns('messages:edit', { ...target, text: 'Noodles at one', editedAt: now() })
    const history = await open(fake)

    await fireEvent.click(within(toolbarOf(history, 'Noodles at noon')).getByRole('button', { name: 'Edit' }))
    const box = screen.getByRole('textbox', { name: 'Message' })
    expect(box).toHaveValue('Noodles at noon')
    await fireEvent.keyDown(box, { key: 'Escape' })
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument()

    await fireEvent.click(within(toolbarOf(history, 'Noodles at noon')).getByRole('button', { name: 'Edit' }))
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Noodles at one' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(fake.callsTo('messages:edit')).toEqual([{ conversationId: 'g1', messageId: target.id, text: 'Noodles at one' }])
    expect(await within(history).findByText('Noodles at one')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()

    fake.fails('messages:edit', 'FORBIDDEN', 'This message can no longer be edited.')
    await fireEvent.click(within(toolbarOf(history, 'Noodles at one')).getByRole('button', { name: 'Edit' }))
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Noodles at two' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This message can no longer be edited.')
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Noodles at two')
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(within(history).getByText('Noodles at one')).toBeInTheDocument()
  })

  it('↑ in the empty Message box edits your newest message that can still be edited, and nothing while there is text or Alt is held', async () => {
    const messages = [
      mine('Too late to change', { createdAt: now() - 20 * 60 }),
      mine('Pasta or noodles?', { createdAt: now() - 120 }),
      mine('Noodles it is', { createdAt: now() - 60 }),
      message({ conversationId: 'g1', text: 'Grace says later', senderId: 'u2', senderName: 'Grace', createdAt: now() - 30 }),
      mine('A poll of mine', { createdAt: now() - 20, attachments: [{ type: 'poll', pollId: '5' }] })
    ]
    await open(setUp(messages))
    let box = screen.getByRole('textbox', { name: 'Message' })
    await fireEvent.input(box, { target: { value: 'not empty' } })
    await fireEvent.keyDown(box, { key: 'ArrowUp' })
    expect(screen.queryByRole('form', { name: 'Edit message' })).toBeNull()
    await fireEvent.input(box, { target: { value: '' } })
    // Alt+↑ belongs to moving between conversations.
    await fireEvent.keyDown(box, { key: 'ArrowUp', altKey: true })
    expect(screen.queryByRole('form', { name: 'Edit message' })).toBeNull()

    await fireEvent.keyDown(box, { key: 'ArrowUp' })
    const form = await screen.findByRole('form', { name: 'Edit message' })
    box = within(form).getByRole('textbox', { name: 'Message' })
    expect(box).toHaveValue('Noodles it is')
    await waitFor(() => expect(box).toHaveFocus())
    await fireEvent.keyDown(box, { key: 'Escape' })
    expect(screen.queryByRole('form', { name: 'Edit message' })).toBeNull()
  })

  it('↑ in the empty Message box does nothing when none of your messages can still be edited', async () => {
    await open(setUp([mine('Too late to change', { createdAt: now() - 20 * 60 })]))
    await fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'ArrowUp' })
    expect(screen.queryByRole('form', { name: 'Edit message' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument()
  })

  it('deletes only after a confirmation, and says why when main refuses', async () => {
    const target = mine('Oops')
    const fake = setUp([target]).returns('messages:delete', null)
    const history = await open(fake)

    await fireEvent.click(within(toolbarOf(history, 'Oops')).getByRole('button', { name: 'Delete' }))
    const confirm = within(rowOf(history, 'Oops')).getByRole('alertdialog', { name: 'Delete this message?' })
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(within(toolbarOf(history, 'Oops')).getByRole('button', { name: 'Delete' })).toHaveFocus()
    await fireEvent.click(within(toolbarOf(history, 'Oops')).getByRole('button', { name: 'Delete' }))
    await fireEvent.keyDown(within(rowOf(history, 'Oops')).getByRole('button', { name: 'Cancel' }), { key: 'Escape' })
    expect(within(rowOf(history, 'Oops')).queryByRole('alertdialog')).toBeNull()
    expect(fake.callsTo('messages:delete')).toEqual([])

    fake.fails('messages:delete', 'FORBIDDEN', 'You cannot delete this message: this conversation does not let you.')
    await fireEvent.click(within(toolbarOf(history, 'Oops')).getByRole('button', { name: 'Delete' }))
    await fireEvent.click(within(within(rowOf(history, 'Oops')).getByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('this conversation does not let you')
    expect(within(history).getByText('Oops')).toBeInTheDocument()

    fake.returns('messages:delete', null)
    await fireEvent.click(within(toolbarOf(history, 'Oops')).getByRole('button', { name: 'Delete' }))
    await fireEvent.click(within(within(rowOf(history, 'Oops')).getByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
    expect(await within(history).findByText('This message was deleted')).toBeInTheDocument()
    expect(fake.callsTo('messages:delete')).toHaveLength(2)
  })

  it('pins and unpins', async () => {
    const target = grace('Meet at noon')
    const fake = setUp([target]).returns('messages:setPinned', null)
    const history = await open(fake)
    await fireEvent.click(within(toolbarOf(history, 'Meet at noon')).getByRole('button', { name: 'Pin' }))
    await fireEvent.click(await within(toolbarOf(history, 'Meet at noon')).findByRole('button', { name: 'Unpin' }))
    expect(await within(toolbarOf(history, 'Meet at noon')).findByRole('button', { name: 'Pin' })).toBeInTheDocument()
    expect(fake.callsTo('messages:setPinned').map((request) => request.pinned)).toEqual([true, false])
  })

  it('lists pins in the Pinned messages region and jumps to one, and offers Most liked in groups with all five lists', async () => {
    const target = grace('Meet at noon', { pinnedAt: now() })
    const fake = setUp([target, mine('Later')])
      .returns('messages:pinned', [target])
      .returns('messages:mostLiked', { day: [target], week: [target], month: [target], mine: [], forMe: [] })
    await open(fake)

    const pinsButton = screen.getByRole('button', { name: 'Pinned messages' })
    await fireEvent.click(pinsButton)
    expect(pinsButton).toHaveAttribute('aria-expanded', 'true')
    const pins = await screen.findByRole('region', { name: 'Pinned messages' })
    await fireEvent.click(await within(pins).findByRole('button', { name: /Meet at noon/ }))

    await fireEvent.click(screen.getByRole('button', { name: 'Most liked' }))
    expect(screen.queryByRole('region', { name: 'Pinned messages' })).toBeNull()
    const liked = await screen.findByRole('region', { name: 'Most liked' })
    await waitFor(() => expect(within(liked).getAllByRole('button', { name: /Meet at noon/ })).toHaveLength(3))
    expect(within(liked).getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent)).toEqual([
      'Today',
      'This week',
      'This month',
      'You reacted to',
      'Your messages others liked'
    ])
    expect(within(liked).getByText('You have not reacted to anything here.')).toBeInTheDocument()
  })

  it('keeps the Pinned messages region up to date while it is open', async () => {
    const target = grace('Meet at noon')
    const fake = setUp([target]).returns('messages:pinned', [])
    await open(fake)
    await fireEvent.click(screen.getByRole('button', { name: 'Pinned messages' }))
    const pins = await screen.findByRole('region', { name: 'Pinned messages' })
    expect(await within(pins).findByText('Nothing is pinned here yet.')).toBeInTheDocument()
    fake.returns('messages:pinned', [{ ...target, pinnedAt: now() }])
    fake.emit('messages:updated', { ...target, pinnedAt: now() })
    expect(await within(pins).findByRole('button', { name: /Meet at noon/ })).toBeInTheDocument()
    // A change that leaves the pins as they are asks for nothing.
    fake.emit('messages:updated', { ...target, pinnedAt: now(), reactions: [{ emoji: '👍', userIds: ['u2'] }] })
    expect(fake.callsTo('messages:pinned')).toHaveLength(2)
  })

  it('says when the pins cannot be loaded, and tries again', async () => {
    const fake = setUp([grace('Hi')]).fails('messages:pinned', 'NETWORK', 'Cannot reach the service.')
    await open(fake)
    await fireEvent.click(screen.getByRole('button', { name: 'Pinned messages' }))
    const pins = await screen.findByRole('region', { name: 'Pinned messages' })
    expect(await within(pins).findByRole('alert')).toHaveTextContent('Cannot reach the service.')
    fake.returns('messages:pinned', [])
    await fireEvent.click(within(pins).getByRole('button', { name: 'Try again' }))
    expect(await within(pins).findByText('Nothing is pinned here yet.')).toBeInTheDocument()
  })

  it('names who reacted: you, the other person in a chat, and in a group whoever wrote in the history shown', async () => {
    const history = await open(
      setUp([grace('Hi', { reactions: [{ emoji: '👀', userIds: ['u2', me.id, 'u9'] }] })])
    )
    expect(within(history).getByRole('button', { name: '👀 3' })).toHaveAttribute('title', 'Grace Hopper, You, Someone')
  })

  it('offers no Most liked in a chat, and names the other person there', async () => {
    const history = await open(setUp([grace('Hi', { reactions: [{ emoji: '👀', userIds: ['u7'] }] })], { kind: 'dm' }))
    // A chat is named after the other person.
    expect(within(history).getByRole('button', { name: '👀 1' })).toHaveAttribute('title', 'Lunch club')
    expect(screen.getByRole('button', { name: 'Pinned messages' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Most liked' })).toBeNull()
  })
})
