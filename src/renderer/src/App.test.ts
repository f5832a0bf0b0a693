import { fireEvent, screen } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { conversation, FakeApi, me } from './testing/fake-api'
import { startApp } from './testing/start-app'

const bookClub = conversation({ id: 'g1', name: 'Book club' })

function signedIn(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub])
    .returns('conversations:open', { conversation: bookClub, messages: [], hasOlder: false, pending: [] })
}

async function openBookClub(): Promise<HTMLElement> {
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  return screen.findByRole('textbox', { name: 'Message' })
}

describe('app start', () => {
  it('registers every listener before telling main it is ready', async () => {
    const fake = signedIn()
    const listening: number[] = []
    fake.handle('app:ready', () => {
      listening.push(
        fake.listenerCount('session:changed'),
        fake.listenerCount('messages:received'),
        fake.listenerCount('push:status'),
        fake.listenerCount('desktop:changed'),
        fake.listenerCount('notifications:show'),
        fake.listenerCount('notifications:close')
      )
      return { ok: true, value: null }
    })
    await startApp(fake)

    expect(listening).toEqual([1, 1, 1, 1, 1, 1])
    expect(fake.calls[0]?.channel).toBe('app:ready')
  })

  it('opens again the conversation left open, once the list shows', async () => {
    const fake = signedIn().returns('conversations:leftOpen', { conversationId: bookClub.id })
    await startApp(fake)

    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    expect(fake.calls.filter((call) => call.channel === 'conversations:open').map((call) => call.request)).toEqual([{ conversationId: bookClub.id }])
  })

  it('opens it again when the list holding it comes after the answer, as the store’s does at a start', async () => {
    const fake = signedIn().returns('conversations:list', []).returns('conversations:leftOpen', { conversationId: bookClub.id })
    await startApp(fake)
    await expect.poll(() => fake.calls.some((call) => call.channel === 'conversations:leftOpen')).toBe(true)

    fake.emit('conversations:changed', [bookClub])
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    expect(fake.calls.filter((call) => call.channel === 'conversations:open').map((call) => call.request)).toEqual([{ conversationId: bookClub.id }])
  })

  it('leaves the one the person opened first open', async () => {
    const chess = conversation({ id: 'g2', name: 'Chess club' })
    const fake = signedIn()
      .returns('conversations:list', [])
      .returns('conversations:leftOpen', { conversationId: bookClub.id })
      .returns('conversations:open', { conversation: chess, messages: [], hasOlder: false, pending: [] })
    await startApp(fake)
    fake.emit('conversations:changed', [chess])
    await fireEvent.click(await screen.findByRole('button', { name: /Chess club/ }))
    await screen.findByRole('textbox', { name: 'Message' })

    fake.emit('conversations:changed', [chess, bookClub])
    await screen.findByRole('button', { name: /Book club/ })
    expect(fake.calls.filter((call) => call.channel === 'conversations:open').map((call) => call.request)).toEqual([{ conversationId: chess.id }])
  })

  it('opens none when the one left open is no longer listed', async () => {
    const fake = signedIn().returns('conversations:leftOpen', { conversationId: 'g-gone' })
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })
    await expect.poll(() => fake.calls.some((call) => call.channel === 'conversations:leftOpen')).toBe(true)

    expect(fake.calls.some((call) => call.channel === 'conversations:open')).toBe(false)
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull()
  })
})

describe('drafts across sessions', () => {
  it('keeps what the user was typing when the session expires and they sign back in', async () => {
    const fake = signedIn()
    await startApp(fake)
    await fireEvent.input(await openBookClub(), { target: { value: 'half a thought' } })

    fake.emit('session:changed', { status: 'signedOut', notice: 'Your session has ended. Sign in again.' })
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    fake.emit('session:changed', { status: 'signedIn', me })

    expect(await openBookClub()).toHaveValue('half a thought')
  })

  it('forgets them when someone else signs in', async () => {
    const fake = signedIn()
    await startApp(fake)
    await fireEvent.input(await openBookClub(), { target: { value: 'for Ada only' } })

    fake.emit('session:changed', { status: 'signedOut', notice: null })
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    fake.emit('session:changed', { status: 'signedIn', me: { id: 'u2', name: 'Grace Hopper', avatarUrl: null } })

    expect(await openBookClub()).toHaveValue('')
  })
})
