import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import type { NewPoll } from '@shared/polls'
import { IpcCallError } from '$lib/main-process'
import NewPollDialog from './NewPollDialog.svelte'

async function openDialog(onCreate: (poll: NewPoll) => Promise<void>): Promise<HTMLElement> {
  render(NewPollDialog, { onCreate })
  await fireEvent.click(screen.getByRole('button', { name: 'Create poll' }))
  return screen.getByRole('dialog', { name: 'New poll' })
}

async function type(dialog: HTMLElement, name: string, value: string): Promise<void> {
  await fireEvent.input(within(dialog).getByRole('textbox', { name }), { target: { value } })
}

describe('NewPollDialog', () => {
  it('makes a poll from the question, the options and the choices', async () => {
    const onCreate = vi.fn(async (_poll: NewPoll) => undefined)
    const dialog = await openDialog(onCreate)
    await type(dialog, 'Question', ' Where to? ')
    await type(dialog, 'Option 1', 'Noodles')
    await type(dialog, 'Option 2', 'Tacos')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add option' }))
    await type(dialog, 'Option 3', 'Pizza')
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Allow multiple answers' }))
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Anonymous' }))
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Ends after' }), { target: { value: '3600' } })
    const before = Math.floor(Date.now() / 1000)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))

    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1))
    const made = onCreate.mock.calls[0]?.[0]
    expect(made).toMatchObject({ subject: 'Where to?', options: ['Noodles', 'Tacos', 'Pizza'], multiple: true, anonymous: true })
    expect(made?.expiresAt).toBeGreaterThanOrEqual(before + 3600)
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New poll' })).not.toBeInTheDocument())
  })

  it('refuses a poll with one option with a clear error, and keeps what was typed', async () => {
    const onCreate = vi.fn(async (_poll: NewPoll) => undefined)
    const dialog = await openDialog(onCreate)
    await type(dialog, 'Question', 'Yes?')
    await type(dialog, 'Option 1', 'Yes')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A poll needs at least 2 options.')
    expect(onCreate).not.toHaveBeenCalled()
    expect(within(dialog).getByRole('textbox', { name: 'Question' })).toHaveValue('Yes?')
    expect(within(dialog).getByRole('textbox', { name: 'Option 1' })).toHaveValue('Yes')
  })

  it('removes an option the user no longer wants', async () => {
    const onCreate = vi.fn(async (_poll: NewPoll) => undefined)
    const dialog = await openDialog(onCreate)
    await type(dialog, 'Question', 'Which?')
    await type(dialog, 'Option 1', 'A')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add option' }))
    await type(dialog, 'Option 2', 'B')
    await type(dialog, 'Option 3', 'C')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove option 2' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(onCreate.mock.calls[0]?.[0].options).toEqual(['A', 'C']))
  })

  it('allows at most 10 options', async () => {
    const dialog = await openDialog(async () => undefined)
    const add = within(dialog).getByRole('button', { name: 'Add option' })
    for (let n = 0; n < 8; n += 1) await fireEvent.click(add)
    expect(within(dialog).getByRole('textbox', { name: 'Option 10' })).toBeInTheDocument()
    expect(add).toBeDisabled()
  })

  it('keeps the form as typed when main refuses the poll, and says why', async () => {
    const dialog = await openDialog(async () => {
      throw new IpcCallError('FORBIDDEN', 'Only admins may create polls here.')
    })
    await type(dialog, 'Question', 'Where to?')
    await type(dialog, 'Option 1', 'Noodles')
    await type(dialog, 'Option 2', 'Tacos')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only admins may create polls here.')
    expect(within(dialog).getByRole('textbox', { name: 'Option 2' })).toHaveValue('Tacos')
  })
})

describe('NewPollDialog without its button', () => {
  it('draws no Create poll button, opens on show(), and gives focus back to what had it on closing', async () => {
    const onCreate = vi.fn(async (_poll: NewPoll) => undefined)
    const opener = document.createElement('button')
    opener.textContent = 'Conversation options'
    document.body.append(opener)
    const { component } = render(NewPollDialog, { onCreate, hideButton: true })
    expect(screen.queryByRole('button', { name: 'Create poll' })).toBeNull()

    opener.focus()
    component.show()
    const dialog = await screen.findByRole('dialog', { name: 'New poll' })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New poll' })).not.toBeInTheDocument())
    expect(opener).toHaveFocus()
    opener.remove()
  })
})
