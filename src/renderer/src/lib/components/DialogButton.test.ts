import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { createRawSnippet } from 'svelte'
import { describe, expect, it } from 'vitest'
import DialogButton from './DialogButton.svelte'

const content = createRawSnippet(() => ({ render: () => '<p>What the dialog holds</p>' }))

describe('DialogButton', () => {
  it('gives focus back to its button on closing', async () => {
    render(DialogButton, { label: 'Members', children: content })
    const button = screen.getByRole('button', { name: 'Members' })
    button.focus()
    await fireEvent.click(button)
    const dialog = await screen.findByRole('dialog', { name: 'Members' })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Members' })).not.toBeInTheDocument())
    expect(button).toHaveFocus()
  })

  it('without its button, opens on show() and gives focus back to what had it then, never to the page', async () => {
    const opener = document.createElement('button')
    opener.textContent = 'Conversation options'
    document.body.append(opener)
    const { component } = render(DialogButton, { label: 'Members', icon: 'members', hideButton: true, children: content })
    expect(screen.queryByRole('button', { name: 'Members' })).toBeNull()

    opener.focus()
    component.show()
    const dialog = await screen.findByRole('dialog', { name: 'Members' })
    expect(within(dialog).getByText('What the dialog holds')).toBeInTheDocument()
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Members' })).not.toBeInTheDocument())
    expect(opener).toHaveFocus()
    opener.remove()
  })
})
