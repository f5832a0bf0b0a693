import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import { chatId } from '@shared/conversation-id'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import GoToDialog from './GoToDialog.svelte'
import ShortcutsDialog from './ShortcutsDialog.svelte'

/** Each key as drawn, without the words kept for screen readers. */
function drawnKeys(sheet: HTMLElement): string[] {
  return [...sheet.querySelectorAll('kbd')].map((key) => {
    const copy = key.cloneNode(true) as HTMLElement
    for (const spoken of copy.querySelectorAll('.visually-hidden')) spoken.remove()
    return copy.textContent?.trim() ?? ''
  })
}

describe('Keyboard shortcuts', () => {
  it('names the keys as macOS does on a Mac', () => {
    render(ShortcutsDialog, { mac: true, onClose: vi.fn() })
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    const keys = drawnKeys(sheet)
    expect(keys).toContain('Cmd')
    expect(keys).toContain('Option')
    expect(keys).not.toContain('Ctrl')
    expect(keys).not.toContain('Alt')
    expect(within(sheet).getAllByText('Command').length).toBeGreaterThan(0)
  })

  it('and as other systems do elsewhere, each arrow with its name for a screen reader', () => {
    render(ShortcutsDialog, { mac: false, onClose: vi.fn() })
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    const keys = drawnKeys(sheet)
    expect(keys).toContain('Ctrl')
    expect(keys).not.toContain('Cmd')
    expect(keys).toContain('↓')
    expect(within(sheet).getAllByText('Down arrow').length).toBeGreaterThan(0)
  })
})

describe('Go to', () => {
  function open(fake: FakeApi) {
    fake.install()
    const onOpen = vi.fn()
    const onClose = vi.fn()
    const conversations = [conversation({ id: 'g1', name: 'Weekend Hikers' }), conversation({ id: chatId(me.id, 'u2'), kind: 'dm', name: 'Grace Hopper' })]
    render(GoToDialog, { conversations, meId: me.id, onOpen, onClose })
    const dialog = screen.getByRole('dialog', { name: 'Go to' })
    return { dialog, combobox: within(dialog).getByRole('combobox', { name: 'Conversation or person' }), onOpen, onClose }
  }

  it('starts a chat with a person who has none, and opens it', async () => {
    const fake = new FakeApi()
      .returns('people:candidates', [{ id: 'u3', name: 'Alan Turing', avatarUrl: null }])
      .returns('chats:start', conversation({ id: chatId(me.id, 'u3'), kind: 'dm', name: 'Alan Turing' }))
    const { dialog, combobox, onOpen } = open(fake)
    await fireEvent.input(combobox, { target: { value: 'alan' } })
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(1))
    await fireEvent.keyDown(combobox, { key: 'Enter' })
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith(chatId(me.id, 'u3')))
    expect(fake.callsTo('chats:start')).toEqual([{ userId: 'u3' }])
  })

  it('says so when the chat cannot be started, and stays open', async () => {
    const fake = new FakeApi()
      .returns('people:candidates', [{ id: 'u3', name: 'Alan Turing', avatarUrl: null }])
      .fails('chats:start', 'FORBIDDEN', 'Alan Turing does not take messages from you.')
    const { dialog, combobox, onOpen, onClose } = open(fake)
    await fireEvent.input(combobox, { target: { value: 'turing' } })
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(1))
    await fireEvent.keyDown(combobox, { key: 'Enter' })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A chat with Alan Turing could not be started. Alan Turing does not take messages from you.')
    expect(onOpen).not.toHaveBeenCalled()
    expect(onClose).not.toHaveBeenCalled()
  })

  it('still finds conversations when the people cannot be loaded', async () => {
    const fake = new FakeApi().fails('people:candidates', 'NETWORK', 'The service is out of reach.')
    const { dialog, combobox } = open(fake)
    await fireEvent.input(combobox, { target: { value: 'hik' } })
    await within(dialog).findByText(/Only conversations are found/)
    expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual([expect.stringContaining('Weekend Hikers')])
  })
})
