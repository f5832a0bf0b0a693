import { fireEvent, render, screen } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import MenuButton from './MenuButton.svelte'

describe('MenuButton', () => {
  it('draws something on or off as a menu item checkbox, checked while it is on, and chooses it like any item', async () => {
    const toggle = vi.fn()
    render(MenuButton, {
      label: 'Conversation options',
      entries: [
        { kind: 'check', label: 'Pinned messages', checked: true, onSelect: toggle },
        { kind: 'check', label: 'Polls', checked: false, onSelect: () => undefined }
      ]
    })
    const button = screen.getByRole('button', { name: 'Conversation options' })
    await fireEvent.click(button)

    expect(screen.getByRole('menuitemcheckbox', { name: 'Pinned messages' })).toHaveAttribute('aria-checked', 'true')
    expect(screen.getByRole('menuitemcheckbox', { name: 'Polls' })).toHaveAttribute('aria-checked', 'false')
    await fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Pinned messages' }))
    expect(toggle).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('menu')).toBeNull()
    expect(button).toHaveFocus()
  })
})
