import { fireEvent, render, screen, waitFor } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FakeApi, message } from '../../testing/fake-api'
import { poll } from '../../testing/polls'
import PollCard from './PollCard.svelte'

afterEach(() => {
  vi.useRealTimers()
})

function showPoll(fake: FakeApi): void {
  fake.install()
  render(PollCard, { conversationId: 'g1', pollId: '1000000000000001' })
}

describe('PollCard', () => {
  it('shows a single-choice poll as radios named by their titles, and votes for the one chosen', async () => {
    const fake = new FakeApi().returns('polls:get', poll())
    fake.handle('polls:vote', ({ optionIds }) => ({
      ok: true,
      value: poll({ myVotes: optionIds, options: [{ id: '1', title: 'Noodles', votes: 0, voters: [] }, { id: '2', title: 'Tacos', votes: 1, voters: [{ id: 'u2', name: 'Alan' }] }] })
    }))
    showPoll(fake)
    await fireEvent.click(await screen.findByRole('radio', { name: 'Tacos' }))
    await fireEvent.click(screen.getByRole('button', { name: 'Vote' }))

    expect(fake.calls.filter((c) => c.channel === 'polls:vote').map((c) => c.request)).toEqual([
      { conversationId: 'g1', pollId: '1000000000000001', optionIds: ['2'] }
    ])
    expect(await screen.findByText('1 vote')).toBeInTheDocument()
    expect(screen.getByText('Alan')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Tacos' })).toBeChecked()
    expect(screen.queryByRole('button', { name: 'End poll' })).not.toBeInTheDocument()
  })

  it('isolates each voter\'s name, so an override left open in one cannot turn the others around', async () => {
    const name = 'Eve \u202Egnp.exe'
    const voters = [{ id: 'u5', name }, { id: 'u2', name: 'Alan' }, { id: 'u3', name: '' }]
    showPoll(new FakeApi().returns('polls:get', poll({ options: [{ id: '1', title: 'Noodles', votes: 3, voters }, { id: '2', title: 'Tacos', votes: 0, voters: [] }] })))
    const line = (await screen.findByText(name)).parentElement
    expect(line?.textContent).toBe(`${name}, Alan, Someone`)
    expect([...(line?.querySelectorAll('bdi') ?? [])].map((bdi) => bdi.textContent)).toEqual([name, 'Alan', 'Someone'])
  })

  it('takes several answers as checkboxes on a multiple-choice poll, and changes a vote already made', async () => {
    const fake = new FakeApi().returns('polls:get', poll({ multiple: true, myVotes: ['1'] }))
    fake.handle('polls:vote', ({ optionIds }) => ({ ok: true, value: poll({ multiple: true, myVotes: optionIds }) }))
    showPoll(fake)
    expect(await screen.findByRole('checkbox', { name: 'Noodles' })).toBeChecked()
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Tacos' }))
    await fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
    await waitFor(() => expect(fake.calls.at(-1)?.request).toMatchObject({ optionIds: ['1', '2'] }))
  })

  it('offers End poll to whoever may end it, and then shows the poll ended, with no Vote', async () => {
    const fake = new FakeApi().returns('polls:get', poll({ canEnd: true })).returns('polls:end', poll({ ended: true }))
    showPoll(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'End poll' }))
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Vote' })).not.toBeInTheDocument())
    expect(screen.getByText(/Ended/)).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Noodles' })).toBeDisabled()
  })

  it('says why a vote was refused, and asks for a choice before voting', async () => {
    const fake = new FakeApi().returns('polls:get', poll()).fails('polls:vote', 'VALIDATION', 'This poll has ended.')
    showPoll(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'Vote' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an option first.')
    await fireEvent.click(screen.getByRole('radio', { name: 'Noodles' }))
    await fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
    expect(await screen.findByText('This poll has ended.')).toBeInTheDocument()
  })

  it('updates when the poll.finished message for it arrives', async () => {
    const fake = new FakeApi().returns('polls:get', poll())
    showPoll(fake)
    await screen.findByRole('button', { name: 'Vote' })
    fake.returns('polls:get', poll({ ended: true }))
    fake.emit('messages:received', {
      ...message({ conversationId: 'g1', text: 'ended', system: true }),
      event: { kind: 'pollFinished', pollId: '1000000000000001', subject: 'Where to?' }
    })
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Vote' })).not.toBeInTheDocument())
  })

  it('fetches the results again while the poll is open, since votes are not pushed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] })
    const fake = new FakeApi().returns('polls:get', poll())
    showPoll(fake)
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Vote' })).toBeInTheDocument())
    fake.returns('polls:get', poll({ options: [{ id: '1', title: 'Noodles', votes: 3, voters: [] }, { id: '2', title: 'Tacos', votes: 0, voters: [] }] }))
    await vi.advanceTimersByTimeAsync(5_000)
    await vi.waitFor(() => expect(screen.getByText('3 votes')).toBeInTheDocument())
  })

  it('shows the poll ended once it expires', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] })
    const fake = new FakeApi().returns('polls:get', poll({ expiresAt: Math.floor(Date.now() / 1000) + 60 }))
    showPoll(fake)
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Vote' })).toBeInTheDocument())
    fake.returns('polls:get', poll({ ended: true }))
    await vi.advanceTimersByTimeAsync(61_000)
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Vote' })).not.toBeInTheDocument())
  })
})
