import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import type { ConversationPicture } from '@shared/conversation-files'
import { FakeApi } from '../../testing/fake-api'
import PicturesDialog from './PicturesDialog.svelte'

const picture = (messageId: string, senderName = 'Grace'): ConversationPicture => ({
  messageId,
  url: `https://i.example/${messageId}.png`,
  senderName,
  createdAt: 1_700_000_000
})

function open(fake: FakeApi, onGoToMessage = vi.fn(), onClose = vi.fn()): { onGoToMessage: typeof onGoToMessage; onClose: typeof onClose } {
  fake.install()
  render(PicturesDialog, { conversationId: 'g1', onClose, onGoToMessage })
  return { onGoToMessage, onClose }
}

describe('PicturesDialog', () => {
  it('shows every picture as a lazily loaded thumbnail button, newest first, and the next page on asking', async () => {
    const fake = new FakeApi().handle('conversations:pictures', ({ beforeId }) => ({
      ok: true,
      value: beforeId === null ? { pictures: [picture('30'), picture('20', '<b>Mallory</b>')], next: '20' } : { pictures: [picture('10')], next: null }
    }))
    open(fake)
    const dialog = screen.getByRole('dialog', { name: 'Pictures' })
    const thumbnails = await within(dialog).findAllByRole('button', { name: /^Picture from / })
    expect(thumbnails.map((button) => button.getAttribute('aria-label')?.split(',')[0])).toEqual(['Picture from Grace', 'Picture from <b>Mallory</b>'])
    expect(thumbnails[0]?.querySelector('img')).toHaveAttribute('loading', 'lazy')
    expect(thumbnails[0]?.querySelector('img')).toHaveAttribute('src', 'https://i.example/30.png')

    await fireEvent.click(within(dialog).getByRole('button', { name: 'More pictures' }))
    await waitFor(() => expect(within(dialog).getAllByRole('button', { name: /^Picture from / })).toHaveLength(3))
    expect(fake.callsTo('conversations:pictures')).toEqual([
      { conversationId: 'g1', beforeId: null },
      { conversationId: 'g1', beforeId: '20' }
    ])
    expect(within(dialog).queryByRole('button', { name: 'More pictures' })).toBeNull()
  })

  it('opens one large, goes back to the grid, and Go to message closes the dialog and opens the message', async () => {
    const fake = new FakeApi().returns('conversations:pictures', { pictures: [picture('30'), picture('20')], next: null })
    const { onGoToMessage, onClose } = open(fake)
    const dialog = screen.getByRole('dialog', { name: 'Pictures' })
    const [, second] = await within(dialog).findAllByRole('button', { name: /^Picture from / })
    await fireEvent.click(second as HTMLElement)
    expect(within(dialog).getByRole('img', { name: /^Picture from Grace/ })).toHaveAttribute('src', 'https://i.example/20.png')
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Go to message' })).toHaveFocus())

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Back to pictures' }))
    await waitFor(() => expect(within(dialog).getAllByRole('button', { name: /^Picture from / })[1]).toHaveFocus())

    await fireEvent.click(within(dialog).getAllByRole('button', { name: /^Picture from / })[1] as HTMLElement)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Go to message' }))
    expect(onClose).toHaveBeenCalledOnce()
    expect(onGoToMessage).toHaveBeenCalledWith('20')
  })

  it('says when there are none, and when they could not be read', async () => {
    open(new FakeApi().returns('conversations:pictures', { pictures: [], next: null }))
    expect(await screen.findByText('No pictures of this conversation are kept on this device.')).toBeInTheDocument()
  })

  it('says why when they could not be read, and tries again', async () => {
    const fake = new FakeApi().fails('conversations:pictures', 'INTERNAL', 'The pictures could not be read.')
    open(fake)
    expect(await screen.findByRole('alert')).toHaveTextContent('The pictures could not be read.')
    fake.returns('conversations:pictures', { pictures: [picture('30')], next: null })
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findAllByRole('button', { name: /^Picture from / })).toHaveLength(1)
  })
})
