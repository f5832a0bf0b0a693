// A profile opened from a sender's name, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Profile } from '@shared/people'
import { conversation, FakeApi, me, message } from '../../testing/fake-api'
import { groupDetails, withGroup } from '../../testing/groups'
import { startApp } from '../../testing/start-app'

const bookClub = conversation({ id: 'g1', name: 'Book club' })
const climbing = conversation({ id: 'g2', name: 'Climbing' })
const chat = conversation({ id: 'u1+u2', kind: 'dm', name: 'Grace Hopper' })

function graceProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'u2',
    name: 'Grace Hopper',
    avatarUrl: null,
    bio: 'Rear admiral, compiler writer.',
    canMessage: true,
    isContact: true,
    blockedByMe: false,
    sharedGroups: [
      { id: 'g1', name: 'Book club', avatarUrl: null },
      { id: 'g2', name: 'Climbing', avatarUrl: null }
    ],
    ...overrides
  }
}

function signedIn(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub, climbing])
    .handle('conversations:open', ({ conversationId }) => {
      const opened = [bookClub, climbing, chat].find((c) => c.id === conversationId) ?? bookClub
      const messages = conversationId === 'g1' ? [message({ conversationId: 'g1', text: 'Hello all' }), message({ conversationId: 'g1', text: 'Mine', senderId: me.id, senderName: me.name })] : []
      return { ok: true, value: { conversation: opened, messages, hasOlder: false, pending: [] } }
    })
    .returns('people:profile', graceProfile())
}

/** Opens Book club and clicks Grace's name on her message. */
async function openGrace(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  const history = await screen.findByRole('list', { name: 'Messages' })
  await fireEvent.click(await within(history).findByRole('button', { name: 'Grace Hopper' }))
  return screen.findByRole('dialog', { name: 'Grace Hopper' })
}

describe('profile', () => {
  it("shows the sender's name, avatar, bio and the groups both are in", async () => {
    const fake = signedIn()
    const dialog = await openGrace(fake)
    expect(fake.callsTo('people:profile')).toEqual([{ userId: 'u2' }])
    expect(within(dialog).getByText('Rear admiral, compiler writer.')).toBeInTheDocument()
    expect(within(dialog).getByText('GH')).toBeInTheDocument()
    const groups = within(dialog).getByRole('region', { name: 'Groups in common' })
    expect(within(groups).getAllByRole('button')).toHaveLength(2)
    expect(within(groups).getByRole('button', { name: 'Book club' })).toBeInTheDocument()
    expect(within(groups).getByRole('button', { name: 'Climbing' })).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Send message' })).toBeEnabled()
    expect(within(dialog).getByRole('button', { name: 'Block' })).toBeEnabled()
  })

  it("offers no profile for the user's own messages", async () => {
    await startApp(signedIn())
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    const history = await screen.findByRole('list', { name: 'Messages' })
    await within(history).findByRole('button', { name: 'Grace Hopper' })
    expect(within(history).queryByRole('button', { name: me.name })).not.toBeInTheDocument()
  })

  it('opens a shared group and closes', async () => {
    const fake = signedIn()
    const dialog = await openGrace(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: /Climbing/ }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Grace Hopper' })).not.toBeInTheDocument())
    expect(await screen.findByRole('heading', { name: 'Climbing', level: 2 })).toBeInTheDocument()
    expect(fake.callsTo('conversations:open').at(-1)).toEqual({ conversationId: 'g2' })
  })

  it('starts a chat with Send message and opens it, even before it is listed', async () => {
    const fake = signedIn().returns('chats:start', chat)
    const dialog = await openGrace(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }))
    await waitFor(() => expect(fake.callsTo('chats:start')).toEqual([{ userId: 'u2' }]))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Grace Hopper' })).not.toBeInTheDocument())
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 })).toBeInTheDocument()
    expect(fake.callsTo('conversations:open').at(-1)).toEqual({ conversationId: 'u1+u2' })
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument()
  })

  it('says why a chat could not be started, and stays open', async () => {
    const fake = signedIn().fails('chats:start', 'NOT_FOUND', 'This person’s account does not exist any more.')
    const dialog = await openGrace(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This person’s account does not exist any more.')
    expect(screen.getByRole('dialog', { name: 'Grace Hopper' })).toBeInTheDocument()
  })

  it('disables Send message with the reason when a message would be refused', async () => {
    const dialog = await openGrace(signedIn().returns('people:profile', graceProfile({ canMessage: false })))
    const send = within(dialog).getByRole('button', { name: 'Send message' })
    expect(send).toBeDisabled()
    expect(send).toHaveAccessibleDescription('Grace Hopper is not accepting messages from you.')
    // The name is isolated from the words after it, whatever overrides it leaves open.
    expect(dialog.querySelector(`#${send.getAttribute('aria-describedby') ?? ''} bdi`)?.textContent).toBe('Grace Hopper')
  })

  it('blocks at once, without asking, then offers Unblock to undo it', async () => {
    const fake = signedIn().returns('people:block', graceProfile({ blockedByMe: true, canMessage: false }))
    const dialog = await openGrace(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Block' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    await waitFor(() => expect(fake.callsTo('people:block')).toEqual([{ userId: 'u2' }]))
    expect(await within(dialog).findByRole('button', { name: 'Unblock' })).toBeEnabled()
    const send = within(dialog).getByRole('button', { name: 'Send message' })
    expect(send).toBeDisabled()
    expect(send).toHaveAccessibleDescription('You block Grace Hopper: unblock them to send a message.')
    expect(dialog.querySelector(`#${send.getAttribute('aria-describedby') ?? ''} bdi`)?.textContent).toBe('Grace Hopper')
  })

  it('keeps the profile as it was when a block is refused, and says why', async () => {
    const fake = signedIn().fails('people:block', 'NETWORK', 'The service cannot be reached. Check your connection.')
    const dialog = await openGrace(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Block' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached. Check your connection.')
    expect(within(dialog).getByRole('button', { name: 'Block' })).toBeEnabled()
    expect(within(dialog).queryByRole('button', { name: 'Unblock' })).not.toBeInTheDocument()
  })

  it('unblocks at once, without asking', async () => {
    const fake = signedIn()
      .returns('people:profile', graceProfile({ blockedByMe: true, canMessage: false }))
      .returns('people:unblock', graceProfile())
    const dialog = await openGrace(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Unblock' }))
    expect(await within(dialog).findByRole('button', { name: 'Block' })).toBeEnabled()
    expect(fake.callsTo('people:unblock')).toEqual([{ userId: 'u2' }])
    expect(within(dialog).getByRole('button', { name: 'Send message' })).toBeEnabled()
  })

  it('says why a profile could not be loaded, and tries again', async () => {
    const fake = signedIn().fails('people:profile', 'NOT_FOUND', 'This person’s account does not exist any more.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    await fireEvent.click(await within(await screen.findByRole('list', { name: 'Messages' })).findByRole('button', { name: 'Grace Hopper' }))
    const dialog = await screen.findByRole('dialog', { name: 'Profile' })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The profile could not be loaded. This person’s account does not exist any more.')

    fake.returns('people:profile', graceProfile())
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('dialog', { name: 'Grace Hopper' })).toBeInTheDocument()
  })

  it("opens the other person's profile from a direct message's header, and a group's header has no such button", async () => {
    const fake = signedIn().returns('conversations:list', [bookClub, chat])
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    const groupTitle = await screen.findByRole('heading', { name: 'Book club', level: 2 })
    expect(within(groupTitle).queryByRole('button')).not.toBeInTheDocument()

    await fireEvent.click(within(screen.getByRole('list', { name: 'Conversations' })).getByRole('button', { name: /Grace Hopper/ }))
    const title = await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 })
    await fireEvent.click(await within(title).findByRole('button', { name: 'Grace Hopper' }))
    expect(await screen.findByRole('dialog', { name: 'Grace Hopper' })).toBeInTheDocument()
    expect(fake.callsTo('people:profile')).toEqual([{ userId: 'u2' }])
  })

  it("offers neither Send message nor Block on the user's own profile, opened from a member list", async () => {
    const ownProfile: Profile = { id: me.id, name: me.name, avatarUrl: null, bio: '', canMessage: true, isContact: false, blockedByMe: false, sharedGroups: [] }
    const fake = withGroup(groupDetails('closed', 'user')).returns('people:profile', ownProfile)
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    await fireEvent.click(await screen.findByRole('button', { name: 'Members' }))
    const members = await within(screen.getByRole('dialog', { name: 'Members' })).findByRole('list', { name: 'Members' })
    await fireEvent.click(within(members).getByRole('button', { name: /Ada \(you\)/ }))
    const dialog = await screen.findByRole('dialog', { name: me.name })
    expect(fake.callsTo('people:profile')).toEqual([{ userId: me.id }])
    expect(within(dialog).getByRole('region', { name: 'Groups in common' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Block' })).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Unblock' })).not.toBeInTheDocument()
  })
})
