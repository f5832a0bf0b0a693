import { fireEvent, render, screen } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import Avatar from './Avatar.svelte'

describe('Avatar', () => {
  it('shows the initials when the picture fails to load, and tries again when the address changes', async () => {
    const view = render(Avatar, { name: 'Ada Lovelace', url: 'https://i.example/ada-1.png' })
    const picture = screen.getByRole('img', { name: 'Ada Lovelace' })
    expect(picture).toHaveAttribute('src', 'https://i.example/ada-1.png')

    await fireEvent.error(picture)
    expect(screen.queryByRole('img')).toBeNull()
    expect(view.container).toHaveTextContent('AL')

    await view.rerender({ name: 'Ada Lovelace', url: 'https://i.example/ada-2.png' })
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute('src', 'https://i.example/ada-2.png')

    await fireEvent.error(screen.getByRole('img', { name: 'Ada Lovelace' }))
    await view.rerender({ name: 'Ada Lovelace', url: 'https://i.example/ada-1.png' })
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute('src', 'https://i.example/ada-1.png')
  })
})
