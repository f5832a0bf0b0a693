// A chat with someone either person blocks says what that person's profile says, in place of the
// Message box, and follows a block or an unblock made anywhere; through the whole renderer against
// a fake main.
import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { ChatStanding, Profile } from '@shared/people'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const GRACE = 'u2'
const chat = conversation({ id: `${me.id}+${GRACE}`, kind: 'dm', name: 'Grace Hopper' })

function profile(standing: ChatStanding): Profile {
  return { id: GRACE, name: 'Grace Hopper', avatarUrl: null, bio: '', isContact: false, sharedGroups: [], ...standing }
}

async function openChat(standing: ChatStanding): Promise<FakeApi> {
  const fake = new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [chat])
    .returns('conversations:open', { conversation: chat, messages: [], hasOlder: false, pending: [] })
    .returns('people:standing', standing)
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Grace Hopper/ }))
  await screen.findByRole('list', { name: 'Messages' })
  return fake
}

describe('a chat and a block', () => {
  it('says the user blocks them, as the profile does, offers no Message box, and Unblock opens it', async () => {
    const fake = await openChat({ canMessage: false, blockedByMe: true })
    const note = await screen.findByRole('note')
    expect(note).toHaveTextContent('You block Grace Hopper: unblock them to send a message.')
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull()
    expect(fake.callsTo('people:standing')).toEqual([{ userId: GRACE }])

    fake.returns('people:unblock', profile({ canMessage: true, blockedByMe: false }))
    await fireEvent.click(screen.getByRole('button', { name: 'Unblock' }))
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    expect(fake.callsTo('people:unblock')).toEqual([{ userId: GRACE }])
  })

  it('says they are not accepting messages when they block the user, with nothing to undo here', async () => {
    await openChat({ canMessage: false, blockedByMe: false })
    expect(await screen.findByRole('note')).toHaveTextContent('Grace Hopper is not accepting messages from you.')
    expect(screen.queryByRole('button', { name: 'Unblock' })).toBeNull()
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull()
  })

  it('follows a block made elsewhere (the profile, Settings) while the chat is open', async () => {
    const fake = await openChat({ canMessage: true, blockedByMe: false })
    await screen.findByRole('textbox', { name: 'Message' })
    fake.emit('people:standingChanged', { userId: GRACE, canMessage: false, blockedByMe: true })
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull())
    expect(screen.getByRole('note')).toHaveTextContent('You block Grace Hopper')
    // Someone else's change is not this chat's.
    fake.emit('people:standingChanged', { userId: 'u3', canMessage: true, blockedByMe: false })
    expect(screen.getByRole('note')).toBeInTheDocument()
    fake.emit('people:standingChanged', { userId: GRACE, canMessage: true, blockedByMe: false })
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument()
  })

  it('keeps the Message box when where they stand cannot be read', async () => {
    const fake = new FakeApi()
      .returns('session:get', { status: 'signedIn', me })
      .returns('conversations:list', [chat])
      .returns('conversations:open', { conversation: chat, messages: [], hasOlder: false, pending: [] })
      .fails('people:standing', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Grace Hopper/ }))
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument()
  })
})
