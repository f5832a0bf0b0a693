import { fireEvent, render, screen, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import { FakeApi } from '../../testing/fake-api'
import { poll } from '../../testing/polls'
import PollsPanel from './PollsPanel.svelte'

describe('PollsPanel', () => {
  it("lists the group's polls a page at a time", async () => {
    const fake = new FakeApi()
    fake.handle('polls:list', ({ next }) => ({
      ok: true,
      value:
        next === null
          ? { polls: [poll({ id: '2', subject: 'Newer' })], next: 'page-2' }
          : { polls: [poll({ id: '1', subject: 'Older', ended: true })], next: null }
    }))
    fake.install()
    render(PollsPanel, { conversationId: 'g1', onClose: vi.fn() })
    const region = screen.getByRole('region', { name: 'Polls' })
    expect(await within(region).findByText('Newer')).toBeInTheDocument()
    await fireEvent.click(within(region).getByRole('button', { name: 'Load more polls' }))
    expect(await within(region).findByText('Older')).toBeInTheDocument()
    expect(within(region).getByText('0 votes · ended')).toBeInTheDocument()
    expect(within(region).queryByRole('button', { name: 'Load more polls' })).not.toBeInTheDocument()
    expect(fake.calls.filter((c) => c.channel === 'polls:list').map((c) => c.request)).toEqual([
      { conversationId: 'g1', next: null },
      { conversationId: 'g1', next: 'page-2' }
    ])
  })

  it('says when there are none, and why a page could not load', async () => {
    const fake = new FakeApi().returns('polls:list', { polls: [], next: null })
    fake.install()
    render(PollsPanel, { conversationId: 'g1', onClose: vi.fn() })
    expect(await screen.findByText('No polls in this group yet.')).toBeInTheDocument()
  })

  it('shows the error when the list is refused', async () => {
    const fake = new FakeApi().fails('polls:list', 'NETWORK', 'The service is out of reach.')
    fake.install()
    render(PollsPanel, { conversationId: 'g1', onClose: vi.fn() })
    expect(await screen.findByRole('alert')).toHaveTextContent('The service is out of reach.')
  })
})
