import { fireEvent, render, screen } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import PictureCacheLimit from './PictureCacheLimit.svelte'

describe('the space for pictures', () => {
  it('shows the limit saved, offers each size there is, and saves a choice at once', async () => {
    const onChange = vi.fn(async () => true)
    render(PictureCacheLimit, { props: { limitMb: 500, onChange } })
    const select = screen.getByRole('combobox', { name: 'Space for pictures' })

    expect(select).toHaveValue('500')
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['100 MB', '250 MB', '500 MB', '1 GB', '2 GB'])
    await fireEvent.change(select, { target: { value: '1000' } })
    expect(onChange).toHaveBeenCalledWith({ pictureCacheLimitMb: 1000 })
  })

  it('goes back to the saved limit when the change is refused', async () => {
    render(PictureCacheLimit, { props: { limitMb: 250, onChange: async () => false } })
    const select = screen.getByRole('combobox', { name: 'Space for pictures' })
    await fireEvent.change(select, { target: { value: '2000' } })
    await vi.waitFor(() => expect(select).toHaveValue('250'))
  })
})
