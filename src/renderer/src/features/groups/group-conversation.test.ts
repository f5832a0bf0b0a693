// What a group's type and the user's role change around the conversation: the composer, the
// header's Group settings and Members, and the join requests badge in the list.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Conversation, GroupRole, GroupType } from '@shared/conversations'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { groupDetails } from '../../testing/groups'
import { startApp } from '../../testing/start-app'

function group(groupType: GroupType, myRole: GroupRole, overrides: Partial<Conversation> = {}): Conversation {
  return conversation({ id: 'g1', name: 'Book club', groupType, myRole, ...overrides })
}

function opening(listed: Conversation): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [listed])
    .returns('conversations:open', { conversation: listed, messages: [], hasOlder: false, pending: [] })
}

async function open(fake: FakeApi): Promise<void> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  await screen.findByRole('list', { name: 'Messages' })
}

describe('the composer and group rules', () => {
  it('shows an ordinary member of an announcement group a note instead of the composer', async () => {
    await open(opening(group('announcement', 'user')))
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull()
    expect(screen.getByRole('note')).toHaveTextContent('Only admins can write in this announcement group.')
    // A poll is a message too.
    expect(screen.queryByRole('button', { name: 'Create poll' })).toBeNull()
  })

  it.each<[GroupType, GroupRole]>([
    ['announcement', 'admin'],
    ['announcement', 'owner'],
    ['closed', 'user'],
    ['private', 'user']
  ])('gives the composer to the %s group’s %s', async (type, role) => {
    await open(opening(group(type, role)))
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create poll' })).toBeInTheDocument()
    expect(screen.queryByRole('note')).toBeNull()
  })

  it('takes the composer away when the group becomes an announcement group while it is open', async () => {
    const fake = opening(group('closed', 'user'))
    await open(fake)
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    fake.emit('conversations:changed', [group('announcement', 'user')])
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull())
    expect(screen.getByRole('note')).toBeInTheDocument()
  })

  it('reads the group afresh on opening, since nobody is told of a change of type', async () => {
    const fake = opening(group('closed', 'user')).returns('groups:get', groupDetails('announcement', 'user'))
    await open(fake)
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull())
    expect(screen.getByRole('note')).toHaveTextContent('Only admins can write in this announcement group.')
    expect(fake.callsTo('groups:get')).toEqual([{ groupId: 'g1' }])
  })

  it('reads the group again when the list says its type changed, and gives the composer back', async () => {
    const fake = opening(group('announcement', 'user')).returns('groups:get', groupDetails('announcement', 'user'))
    await open(fake)
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull())
    fake.returns('groups:get', groupDetails('closed', 'user'))
    fake.emit('conversations:changed', [group('closed', 'user')])
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    expect(fake.callsTo('groups:get')).toHaveLength(2)
  })

  it('offers Group settings and Members in a group’s header', async () => {
    await open(opening(group('closed', 'user')))
    const header = screen.getByRole('heading', { name: 'Book club' }).closest('header') as HTMLElement
    expect(within(header).getByRole('button', { name: 'Group settings' })).toBeInTheDocument()
    expect(within(header).getByRole('button', { name: 'Members' })).toBeInTheDocument()
  })

  it('offers neither in a direct message', async () => {
    await open(opening(conversation({ id: 'u1+u2', kind: 'dm', name: 'Book club' })))
    expect(screen.queryByRole('button', { name: 'Group settings' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Members' })).toBeNull()
  })
})

describe('the join requests badge', () => {
  it('counts the requests waiting on a group in the list, and goes when there are none', async () => {
    const fake = opening(group('closed', 'admin', { joinRequestCount: 2 }))
    await startApp(fake)
    const entry = await screen.findByRole('button', { name: /Book club/ })
    expect(entry).toHaveAccessibleName(expect.stringContaining('2 join requests'))
    fake.emit('conversations:changed', [group('closed', 'admin', { joinRequestCount: 1 })])
    await waitFor(() => expect(screen.getByRole('button', { name: /Book club/ })).toHaveAccessibleName(expect.stringContaining('1 join request')))
    fake.emit('conversations:changed', [group('closed', 'admin', { joinRequestCount: 0 })])
    await waitFor(() => expect(screen.getByRole('button', { name: /Book club/ })).not.toHaveAccessibleName(expect.stringContaining('join request')))
  })
})

describe('reading the group', () => {
  it('settles when each read of the group brings a new list that changes nothing (main sends one after every read)', async () => {
    const listed = group('closed', 'admin')
    const fake = opening(listed).returns('members:joinRequests', []).returns('members:former', [])
    fake.handle('groups:get', () => {
      fake.emit('conversations:changed', [{ ...listed }])
      return { ok: true, value: groupDetails('closed', 'admin') }
    })
    await open(fake)
    await fireEvent.click(screen.getByRole('button', { name: 'Members' }))
    const members = screen.getByRole('dialog', { name: 'Members' })
    expect(await within(members).findByRole('list', { name: 'Members' })).toBeInTheDocument()
    await new Promise((resolve) => setTimeout(resolve, 50))
    // Once on opening the group, once on opening Members.
    expect(fake.callsTo('groups:get')).toHaveLength(2)
  })
})

describe('a group the user is no longer in', () => {
  it('closes when a new list no longer has it, and says why', async () => {
    const fake = opening(group('closed', 'user'))
    await open(fake)
    fake.emit('conversations:changed', [])
    await waitFor(() => expect(screen.getByRole('heading', { name: 'No conversation selected' })).toBeInTheDocument())
    expect(screen.queryByRole('list', { name: 'Messages' })).toBeNull()
    const notice = screen.getByText((_, element) => element?.getAttribute('role') === 'status' && element.textContent === 'Book club was deleted, or you are no longer in it.')
    expect(notice.querySelector('bdi')?.textContent).toBe('Book club')
  })

  it('keeps a chat open when the list does not have it: a chat just started is listed only once it has messages', async () => {
    const chat = conversation({ id: 'u1+u2', kind: 'dm', name: 'Grace' })
    const fake = new FakeApi()
      .returns('session:get', { status: 'signedIn', me })
      .returns('conversations:list', [chat])
      .returns('conversations:open', { conversation: chat, messages: [], hasOlder: false, pending: [] })
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Grace/ }))
    await screen.findByRole('list', { name: 'Messages' })
    fake.emit('conversations:changed', [])
    const sidebar = screen.getByRole('navigation', { name: 'Conversation list' })
    await waitFor(() => expect(within(sidebar).queryByRole('button', { name: /Grace/ })).toBeNull())
    expect(screen.getByRole('list', { name: 'Messages' })).toBeInTheDocument()
    expect(screen.queryByText(/no longer in/)).toBeNull()
  })
})
