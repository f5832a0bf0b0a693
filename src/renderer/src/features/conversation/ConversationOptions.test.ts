import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Conversation } from '@shared/conversations'
import type { Mute } from '@shared/attention'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const HOUR_MS = 3_600_000

function withBookClub(mute: Mute | null = null): { fake: FakeApi; bookClub: Conversation } {
  const bookClub = conversation({ id: 'g1', name: 'Book club', mute })
  const fake = new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub, conversation({ id: 'g2', name: 'Climbing' })])
    .returns('conversations:open', { conversation: bookClub, messages: [], hasOlder: false, pending: [] })
  return { fake, bookClub }
}

async function openBookClub(fake: FakeApi): Promise<void> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  await screen.findByRole('list', { name: 'Messages' })
}

async function openOptions(): Promise<void> {
  await fireEvent.click(screen.getByRole('button', { name: 'Conversation options' }))
  await screen.findByRole('menu', { name: 'Conversation options' })
}

function listItem(name: RegExp): HTMLElement {
  return within(screen.getByRole('list', { name: 'Conversations' })).getByRole('button', { name })
}

describe('conversation options', () => {
  for (const [label, duration] of [
    ['Mute for 1 hour', 'oneHour'],
    ['Mute for 8 hours', 'eightHours'],
    ['Mute until tomorrow', 'untilTomorrow'],
    ['Mute until I turn it back on', 'untilTurnedOn']
  ] as const) {
    it(`${label.toLowerCase()}: asks main, then marks the conversation muted in the list`, async () => {
      const { fake, bookClub } = withBookClub()
      fake.handle('conversations:mute', () => ({ ok: true, value: { ...bookClub, mute: { until: null } } }))
      await openBookClub(fake)
      expect(within(listItem(/Book club/)).queryByRole('img', { name: 'Muted' })).toBeNull()

      await openOptions()
      expect(screen.queryByRole('menuitem', { name: 'Unmute' })).toBeNull()
      await fireEvent.click(screen.getByRole('menuitem', { name: label }))

      expect(fake.callsTo('conversations:mute')).toEqual([{ conversationId: 'g1', duration }])
      await waitFor(() => expect(within(listItem(/Book club/)).getByRole('img', { name: 'Muted' })).toBeInTheDocument())
      expect(within(listItem(/Climbing/)).queryByRole('img', { name: 'Muted' })).toBeNull()
      expect(screen.getByRole('region', { name: 'Book club' })).toHaveTextContent('Muted')
    })
  }

  it('unmutes a muted conversation', async () => {
    const until = Date.now() + HOUR_MS
    const { fake, bookClub } = withBookClub({ until })
    fake.returns('conversations:unmute', { ...bookClub, mute: null })
    await openBookClub(fake)
    expect(listItem(/Book club/)).toHaveAccessibleName(/Muted/)

    await openOptions()
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Unmute' }))

    expect(fake.callsTo('conversations:unmute')).toEqual([{ conversationId: 'g1' }])
    await waitFor(() => expect(within(listItem(/Book club/)).queryByRole('img', { name: 'Muted' })).toBeNull())
    expect(screen.getByRole('region', { name: 'Book club' })).not.toHaveTextContent('Muted')
  })

  it('is driven from the keyboard', async () => {
    const { fake, bookClub } = withBookClub()
    fake.handle('conversations:mute', () => ({ ok: true, value: { ...bookClub, mute: { until: Date.now() + HOUR_MS } } }))
    await openBookClub(fake)
    const button = screen.getByRole('button', { name: 'Conversation options' })

    await fireEvent.keyDown(button, { key: 'ArrowDown' })
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Mute for 1 hour' })).toHaveFocus())
    await fireEvent.keyDown(screen.getByRole('menu'), { key: 'ArrowDown' })
    await fireEvent.keyDown(screen.getByRole('menu'), { key: 'Enter' })

    expect(fake.callsTo('conversations:mute')).toEqual([{ conversationId: 'g1', duration: 'eightHours' }])
    expect(button).toHaveFocus()
  })

  it('shows a refusal and changes nothing', async () => {
    const { fake } = withBookClub()
    fake.fails('conversations:mute', 'NETWORK', 'Cannot reach the service. Check your connection and try again.')
    await openBookClub(fake)

    await openOptions()
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Mute for 1 hour' }))

    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the service.')
    expect(within(listItem(/Book club/)).queryByRole('img', { name: 'Muted' })).toBeNull()
    await openOptions()
    expect(screen.queryByRole('menuitem', { name: 'Unmute' })).toBeNull()
  })

  it('does not show a mute that has run out as muted', async () => {
    const { fake } = withBookClub({ until: Date.now() - 1000 })
    await openBookClub(fake)

    expect(within(listItem(/Book club/)).queryByRole('img', { name: 'Muted' })).toBeNull()
    await openOptions()
    expect(screen.queryByRole('menuitem', { name: 'Unmute' })).toBeNull()
  })

  it('reads unmuted the moment a mute ends, with no word from main', async () => {
    const { fake } = withBookClub({ until: Date.now() + 300 })
    await openBookClub(fake)
    expect(within(listItem(/Book club/)).getByRole('img', { name: 'Muted' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Book club' })).toHaveTextContent('Muted until')

    await waitFor(() => expect(within(listItem(/Book club/)).queryByRole('img', { name: 'Muted' })).toBeNull(), { timeout: 3000 })
    await waitFor(() => expect(screen.getByRole('region', { name: 'Book club' })).not.toHaveTextContent('Muted'))
  })

  it('shows mutes main reports in the list', async () => {
    const { fake, bookClub } = withBookClub()
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })

    fake.emit('conversations:changed', [{ ...bookClub, mute: { until: null } }])

    await waitFor(() => expect(within(listItem(/Book club/)).getByRole('img', { name: 'Muted' })).toBeInTheDocument())
  })
})
