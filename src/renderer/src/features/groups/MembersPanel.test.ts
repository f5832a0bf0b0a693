// The Members dialog as each role sees it in each type of group, and what its actions do, through
// the whole renderer against a fake main.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import type { AddMembersResult, GroupDetails, JoinRequest } from '@shared/groups'
import { GroupModel } from '$lib/state/group.svelte'
import { FakeApi } from '../../testing/fake-api'
import { groupDetails, member, withGroup } from '../../testing/groups'
import MembersPanelWithProfiles from '../../testing/MembersPanelWithProfiles.svelte'
import { startApp } from '../../testing/start-app'
import MembersPanel from './MembersPanel.svelte'

async function openMembers(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  await fireEvent.click(await screen.findByRole('button', { name: 'Members' }))
  const dialog = screen.getByRole('dialog', { name: 'Members' })
  await within(dialog).findByRole('list', { name: 'Members' })
  return dialog
}

function memberItem(dialog: HTMLElement, name: string): HTMLElement {
  const list = within(dialog).getByRole('list', { name: 'Members' })
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(name))
  if (!item) throw new Error(`no member ${name}`)
  return item
}

/** The menuitems of a member's Member options, or [] when there is no such button. */
async function optionsOf(item: HTMLElement): Promise<string[]> {
  const button = within(item).queryByRole('button', { name: 'Member options' })
  if (button === null) return []
  await fireEvent.click(button)
  const names = within(item)
    .getAllByRole('menuitem')
    .map((entry) => entry.textContent?.trim() ?? '')
  await fireEvent.keyDown(within(item).getByRole('menu'), { key: 'Escape' })
  return names
}

async function choose(item: HTMLElement, option: string): Promise<void> {
  await fireEvent.click(within(item).getByRole('button', { name: 'Member options' }))
  await fireEvent.click(within(item).getByRole('menuitem', { name: option }))
}

function joinRequest(overrides: Partial<JoinRequest> = {}): JoinRequest {
  return { membershipId: 'ms9', userId: 'u9', name: 'Barbara Liskov', avatarUrl: null, requestedAt: 1_700_000_000, question: 'Which book did you last read?', answer: 'Dune', ...overrides }
}

describe('Members: what each role is offered', () => {
  it('lists every member with name, account name, role and muted state', async () => {
    const dialog = await openMembers(withGroup(groupDetails('closed', 'user')))
    const items = within(within(dialog).getByRole('list', { name: 'Members' })).getAllByRole('listitem')
    expect(items).toHaveLength(4)
    // The name leads each item's text: the initials drawn before it come after it in the markup.
    expect(items[0]?.textContent).toMatch(/^\s*Ada \(you\)/)
    expect(items[0]).toHaveTextContent('Ada Lovelace')
    expect(items[1]).toHaveTextContent('Grace')
    expect(items[1]).toHaveTextContent('Grace Hopper')
    expect(items[1]).toHaveTextContent('Owner')
    expect(items[2]).toHaveTextContent('Admin')
    expect(items[2]).toHaveTextContent('Muted')
    expect(items[3]).toHaveTextContent('Member')
    expect(items[3]).not.toHaveTextContent('Muted')
  })

  it('isolates each nickname, so an override left open in the user\'s own cannot turn "(you)" around', async () => {
    const details = groupDetails('closed', 'user')
    const nickname = '\u202EAda'
    const renamed = { ...details, members: details.members.map((m) => (m.membershipId === details.myMembershipId ? { ...m, nickname } : m)) }
    const dialog = await openMembers(withGroup(renamed))
    const own = memberItem(dialog, '(you)')
    const isolated = own.querySelector('bdi')
    expect(isolated?.textContent).toBe(nickname)
    expect(isolated?.parentElement?.textContent).toBe(`${nickname} (you)`)
  })

  it('offers an ordinary member of a closed group no member options, no Add members and no join requests', async () => {
    const fake = withGroup(groupDetails('closed', 'user'))
    const dialog = await openMembers(fake)
    for (const name of ['Grace', 'Alan', 'Linus']) expect(await optionsOf(memberItem(dialog, name))).toEqual([])
    expect(within(dialog).queryByRole('button', { name: 'Add members' })).toBeNull()
    expect(within(dialog).queryByRole('heading', { name: 'Join requests' })).toBeNull()
    expect(within(dialog).getByRole('textbox', { name: 'Your nickname in this group' })).toHaveValue('Ada')
    // Neither MB5's requests nor MB1's former members are asked for.
    expect(fake.callsTo('members:joinRequests')).toEqual([])
    expect(fake.callsTo('members:former')).toEqual([])
  })

  it('lets an ordinary member of a private group remove others and add people, but not change roles', async () => {
    const dialog = await openMembers(withGroup(groupDetails('private', 'user')))
    expect(await optionsOf(memberItem(dialog, 'Linus'))).toEqual(['Remove', 'Ban'])
    expect(await optionsOf(memberItem(dialog, 'Alan'))).toEqual(['Remove', 'Ban'])
    expect(await optionsOf(memberItem(dialog, 'Grace'))).toEqual([])
    expect(within(dialog).getByRole('button', { name: 'Add members' })).toBeInTheDocument()
    expect(within(dialog).getByRole('heading', { name: 'Join requests' })).toBeInTheDocument()
  })

  it('lets an admin of a closed group remove anyone but the owner, with no role changes', async () => {
    const dialog = await openMembers(withGroup(groupDetails('closed', 'admin')))
    expect(await optionsOf(memberItem(dialog, 'Linus'))).toEqual(['Remove', 'Ban'])
    expect(await optionsOf(memberItem(dialog, 'Alan'))).toEqual(['Remove', 'Ban'])
    expect(await optionsOf(memberItem(dialog, 'Grace'))).toEqual([])
    expect(await optionsOf(memberItem(dialog, 'Ada'))).toEqual([])
    expect(within(dialog).getByRole('button', { name: 'Add members' })).toBeInTheDocument()
  })

  it('lets the owner make members admins and admins members again', async () => {
    const dialog = await openMembers(withGroup(groupDetails('closed', 'owner')))
    expect(await optionsOf(memberItem(dialog, 'Linus'))).toEqual(['Remove', 'Ban', 'Make admin'])
    expect(await optionsOf(memberItem(dialog, 'Alan'))).toEqual(['Remove', 'Ban', 'Remove admin'])
  })
})

describe('Members: changing the roster', () => {
  it('removes a member after asking', async () => {
    const before = groupDetails('closed', 'admin')
    const after: GroupDetails = { ...before, members: before.members.filter((m) => m.membershipId !== 'ms4') }
    const fake = withGroup(before).returns('members:remove', after)
    const dialog = await openMembers(fake)
    await choose(memberItem(dialog, 'Linus'), 'Remove')
    const ask = screen.getByRole('alertdialog', { name: 'Remove Linus from the group?' })
    await fireEvent.click(within(ask).getByRole('button', { name: 'Remove' }))

    await waitFor(() => expect(within(within(dialog).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(3))
    expect(fake.callsTo('members:remove')).toEqual([{ groupId: 'g1', membershipId: 'ms4' }])
  })

  it('isolates a right-to-left name in the question, so it cannot turn the app’s words around', async () => {
    // Arabic, ending in a right-to-left override left open.
    const nickname = 'ليلى\u202E'
    const before = groupDetails('closed', 'admin')
    const withName: GroupDetails = { ...before, members: before.members.map((m) => (m.membershipId === 'ms4' ? { ...m, nickname } : m)) }
    const dialog = await openMembers(withGroup(withName))
    await choose(memberItem(dialog, nickname), 'Remove')

    const ask = screen.getByRole('alertdialog')
    const question = within(ask).getByRole('heading')
    expect(question.textContent).toBe(`Remove ${nickname} from the group?`)
    expect([...question.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual([nickname])
  })

  it('bans a current member after saying they will be removed and cannot come back on their own', async () => {
    const before = groupDetails('closed', 'admin')
    const fake = withGroup(before).returns('members:ban', [
      { membershipId: 'ms4', userId: 'u4', nickname: 'Linus', name: 'Linus', avatarUrl: null, state: 'removed' }
    ])
    const dialog = await openMembers(fake)
    await choose(memberItem(dialog, 'Linus'), 'Ban')
    const ask = screen.getByRole('alertdialog', { name: 'Ban Linus?' })
    expect(ask).toHaveAccessibleDescription(
      'They will be removed and cannot come back through the link or rejoin; only a manager adding them again brings them back.'
    )
    fake.returns('groups:get', { ...before, members: before.members.filter((m) => m.membershipId !== 'ms4') })
    await fireEvent.click(within(ask).getByRole('button', { name: 'Ban' }))

    await waitFor(() => expect(within(within(dialog).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(3))
    expect(fake.callsTo('members:ban')).toEqual([{ groupId: 'g1', membershipId: 'ms4' }])
    expect(fake.callsTo('members:remove')).toEqual([])
    const former = within(dialog).getByRole('list', { name: 'No longer in the group' })
    expect(within(former).getByRole('listitem')).toHaveTextContent('Removed')
  })

  it('keeps the member listed when removing is refused, and says why', async () => {
    const fake = withGroup(groupDetails('closed', 'admin')).fails('members:remove', 'FORBIDDEN', 'Only admins can remove members here.')
    const dialog = await openMembers(fake)
    await choose(memberItem(dialog, 'Linus'), 'Remove')
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only admins can remove members here.')
    expect(memberItem(dialog, 'Linus')).toBeInTheDocument()
  })

  it('makes a member an admin', async () => {
    const before = groupDetails('closed', 'owner')
    const after: GroupDetails = { ...before, members: before.members.map((m) => (m.membershipId === 'ms4' ? { ...m, role: 'admin' } : m)) }
    const fake = withGroup(before).returns('members:setRole', after)
    const dialog = await openMembers(fake)
    await choose(memberItem(dialog, 'Linus'), 'Make admin')
    await waitFor(() => expect(memberItem(dialog, 'Linus')).toHaveTextContent('Admin'))
    expect(fake.callsTo('members:setRole')).toEqual([{ groupId: 'g1', membershipId: 'ms4', role: 'admin' }])
  })

  it('shows admins who left, and bans one of them after asking; someone removed cannot be banned', async () => {
    const fake = withGroup(groupDetails('closed', 'admin')).returns('members:former', [
      { membershipId: 'ms7', userId: 'u7', nickname: 'Edsger', name: 'Edsger Dijkstra', avatarUrl: null, state: 'left' },
      { membershipId: 'ms8', userId: 'u8', nickname: 'Donald', name: 'Donald Knuth', avatarUrl: null, state: 'removed' }
    ])
    fake.returns('members:ban', [
      { membershipId: 'ms7', userId: 'u7', nickname: 'Edsger', name: 'Edsger Dijkstra', avatarUrl: null, state: 'banned' },
      { membershipId: 'ms8', userId: 'u8', nickname: 'Donald', name: 'Donald Knuth', avatarUrl: null, state: 'removed' }
    ])
    const dialog = await openMembers(fake)
    const former = await within(dialog).findByRole('list', { name: 'No longer in the group' })
    const [edsger, donald] = within(former).getAllByRole('listitem') as [HTMLElement, HTMLElement]
    expect(edsger).toHaveTextContent('Left')
    expect(await optionsOf(donald)).toEqual([])
    expect(await optionsOf(edsger)).toEqual(['Ban'])

    await choose(edsger, 'Ban')
    await fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Ban Edsger?' })).getByRole('button', { name: 'Ban' }))
    await waitFor(() => expect(within(former).getAllByRole('listitem')[0]).toHaveTextContent('Banned'))
    expect(fake.callsTo('members:ban')).toEqual([{ groupId: 'g1', membershipId: 'ms7' }])
  })

  it('changes the user’s own nickname', async () => {
    const before = groupDetails('closed', 'user')
    const after: GroupDetails = { ...before, members: before.members.map((m) => (m.membershipId === 'ms1' ? { ...m, nickname: 'Countess' } : m)) }
    const fake = withGroup(before).returns('members:setNickname', after)
    const dialog = await openMembers(fake)
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Your nickname in this group' }), { target: { value: ' Countess ' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save nickname' }))
    await waitFor(() => expect(memberItem(dialog, 'Countess (you)')).toBeInTheDocument())
    expect(fake.callsTo('members:setNickname')).toEqual([{ groupId: 'g1', nickname: 'Countess' }])
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Your nickname in this group' })).toHaveValue('Countess'))
  })

  it('keeps a refused nickname in its field, with why', async () => {
    const fake = withGroup(groupDetails('closed', 'user')).fails('members:setNickname', 'VALIDATION', 'A nickname is 1 to 50 characters.')
    const dialog = await openMembers(fake)
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Your nickname in this group' }), { target: { value: 'Countess' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save nickname' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A nickname is 1 to 50 characters.')
    expect(within(dialog).getByRole('textbox', { name: 'Your nickname in this group' })).toHaveValue('Countess')
    expect(memberItem(dialog, 'Ada (you)')).toBeInTheDocument()
  })
})

describe('Members: join requests', () => {
  it('shows each request with its question and answer, and approving one makes a member', async () => {
    const before = groupDetails('closed', 'admin')
    const fake = withGroup(before).returns('members:joinRequests', [joinRequest(), joinRequest({ membershipId: 'ms10', userId: 'u10', name: 'Frances Allen', question: null, answer: null })])
    const dialog = await openMembers(fake)
    const requests = await within(dialog).findByRole('list', { name: 'Join requests' })
    const [barbara] = within(requests).getAllByRole('listitem') as [HTMLElement]
    expect(barbara).toHaveTextContent('Barbara Liskov')
    expect(barbara).toHaveTextContent('Which book did you last read?')
    expect(barbara).toHaveTextContent('Dune')

    fake
      .returns('members:decide', [joinRequest({ membershipId: 'ms10', userId: 'u10', name: 'Frances Allen', question: null, answer: null })])
      .returns('groups:get', { ...before, members: [...before.members, member({ membershipId: 'ms9', userId: 'u9', nickname: 'Barbara Liskov' })] })
    await fireEvent.click(within(barbara).getByRole('button', { name: 'Approve' }))

    await waitFor(() => expect(within(requests).getAllByRole('listitem')).toHaveLength(1))
    expect(fake.callsTo('members:decide')).toEqual([{ groupId: 'g1', membershipId: 'ms9', approve: true }])
    await waitFor(() => expect(memberItem(dialog, 'Barbara Liskov')).toBeInTheDocument())
  })

  it('denies a request, which leaves the members as they were', async () => {
    const fake = withGroup(groupDetails('closed', 'admin')).returns('members:joinRequests', [joinRequest()]).returns('members:decide', [])
    const dialog = await openMembers(fake)
    const requests = await within(dialog).findByRole('list', { name: 'Join requests' })
    await fireEvent.click(within(requests).getByRole('button', { name: 'Deny' }))
    expect(await within(dialog).findByText('Nobody is waiting to join.')).toBeInTheDocument()
    expect(fake.callsTo('members:decide')).toEqual([{ groupId: 'g1', membershipId: 'ms9', approve: false }])
    expect(within(within(dialog).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(4)
  })

  it('keeps a request whose decision was refused, and says why', async () => {
    const fake = withGroup(groupDetails('closed', 'admin'))
      .returns('members:joinRequests', [joinRequest()])
      .fails('members:decide', 'NOT_FOUND', 'This request was already settled.')
    const dialog = await openMembers(fake)
    const requests = await within(dialog).findByRole('list', { name: 'Join requests' })
    await fireEvent.click(within(requests).getByRole('button', { name: 'Approve' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This request was already settled.')
    expect(within(requests).getByRole('listitem')).toHaveTextContent('Barbara Liskov')
  })
})

describe('Members: Add members', () => {
  const people = [
    { id: 'u20', name: 'Katherine Johnson', avatarUrl: null },
    { id: 'u21', name: 'Dorothy Vaughan', avatarUrl: null }
  ]

  async function openAdd(fake: FakeApi): Promise<HTMLElement> {
    const members = await openMembers(fake.returns('people:candidates', people))
    await fireEvent.click(within(members).getByRole('button', { name: 'Add members' }))
    return screen.getByRole('dialog', { name: 'Add members' })
  }

  it('adds people picked by name and typed by e-mail, shows progress, then who was added and who was not', async () => {
    const fake = withGroup(groupDetails('closed', 'admin'))
    const adding = fake.holds('members:add')
    const dialog = await openAdd(fake)
    const box = within(dialog).getByRole('combobox', { name: 'Add people' })

    await fireEvent.input(box, { target: { value: 'kath' } })
    const listbox = within(dialog).getByRole('listbox', { name: 'Add people' })
    expect(within(listbox).getAllByRole('option')).toHaveLength(1)
    await fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(box).toHaveAttribute('aria-activedescendant', within(listbox).getByRole('option', { name: 'Katherine Johnson' }).id)
    await fireEvent.keyDown(box, { key: 'Enter' })
    await fireEvent.input(box, { target: { value: 'dorothy' } })
    await fireEvent.click(within(dialog).getByRole('option', { name: 'Dorothy Vaughan' }))
    await fireEvent.input(box, { target: { value: 'mary@example.org' } })
    await fireEvent.keyDown(box, { key: 'Enter' })
    const picked = within(dialog).getByRole('list', { name: 'People to add' })
    expect(within(picked).getAllByRole('listitem').map((item) => item.textContent?.replace('×', '').trim())).toEqual([
      'Katherine Johnson',
      'Dorothy Vaughan',
      'mary@example.org'
    ])

    // A typed address is nobody's name: the group will call them what the user types beside it.
    const typedName = within(picked).getByRole('textbox', { name: 'Name for mary@example.org' })
    expect(typedName).toBeRequired()
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give a name for mary@example.org')
    expect(fake.callsTo('members:add')).toEqual([])
    await fireEvent.input(typedName, { target: { value: 'Mary Jackson' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    expect(within(dialog).getByRole('progressbar', { name: 'Adding members' })).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeDisabled()
    expect(fake.callsTo('members:add')).toEqual([
      {
        groupId: 'g1',
        candidates: [
          { nickname: 'Katherine Johnson', userId: 'u20' },
          { nickname: 'Dorothy Vaughan', userId: 'u21' },
          { nickname: 'Mary Jackson', email: 'mary@example.org' }
        ]
      }
    ])

    const result: AddMembersResult = {
      added: [member({ membershipId: 'ms20', userId: 'u20', nickname: 'Katherine Johnson' }), member({ membershipId: 'ms21', userId: 'u21', nickname: 'Dorothy Vaughan' })],
      notAdded: ['Mary Jackson']
    }
    const details = groupDetails('closed', 'admin')
    fake.returns('groups:get', { ...details, members: [...details.members, ...result.added] })
    adding.resolve(result)

    const added = await within(dialog).findByRole('list', { name: 'Added' })
    expect(within(added).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Katherine Johnson', 'Dorothy Vaughan'])
    const notAdded = within(dialog).getByRole('list', { name: 'Could not be added' })
    expect(within(notAdded).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Mary Jackson'])
    expect(within(dialog).queryByRole('progressbar')).toBeNull()
    // The members behind the dialog show who joined.
    const members = screen.getByRole('dialog', { name: 'Members' })
    await waitFor(() => expect(within(within(members).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(6))
  })

  it('keeps the people picked and their names when the dialog is closed and opened again', async () => {
    const dialog = await openAdd(withGroup(groupDetails('closed', 'admin')))
    const box = within(dialog).getByRole('combobox', { name: 'Add people' })
    await fireEvent.input(box, { target: { value: '+1 555 010 2000' } })
    await fireEvent.keyDown(box, { key: 'Enter' })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Name for +1 555 010 2000' }), { target: { value: 'Mary Jackson' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(dialog).not.toHaveAttribute('open')

    await fireEvent.click(within(screen.getByRole('dialog', { name: 'Members' })).getByRole('button', { name: 'Add members' }))
    expect(within(within(dialog).getByRole('list', { name: 'People to add' })).getByRole('listitem')).toHaveTextContent('+1 555 010 2000')
    expect(within(dialog).getByRole('textbox', { name: 'Name for +1 555 010 2000' })).toHaveValue('Mary Jackson')
  })

  it('does not offer those already in the group', async () => {
    const fake = withGroup(groupDetails('closed', 'admin'))
    const members = await openMembers(fake.returns('people:candidates', [...people, { id: 'u4', name: 'Linus', avatarUrl: null }]))
    await fireEvent.click(within(members).getByRole('button', { name: 'Add members' }))
    const dialog = screen.getByRole('dialog', { name: 'Add members' })
    await waitFor(() => expect(fake.callsTo('people:candidates')).toHaveLength(1))
    const box = within(dialog).getByRole('combobox', { name: 'Add people' })
    await fireEvent.input(box, { target: { value: 'n' } })
    const listbox = within(dialog).getByRole('listbox', { name: 'Add people' })
    expect(within(listbox).getByRole('option', { name: 'Katherine Johnson' })).toBeInTheDocument()
    expect(within(listbox).queryByRole('option', { name: 'Linus' })).toBeNull()
  })

  it('refuses typed text that is neither a phone number nor an e-mail address', async () => {
    const dialog = await openAdd(withGroup(groupDetails('closed', 'admin')))
    const box = within(dialog).getByRole('combobox', { name: 'Add people' })
    await fireEvent.input(box, { target: { value: 'Mary' } })
    await fireEvent.keyDown(box, { key: 'Enter' })
    expect(within(dialog).getByRole('alert')).toHaveTextContent('“Mary” is neither a phone number nor an e-mail address.')
    expect(within(dialog).queryByRole('list', { name: 'People to add' })).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeDisabled()
  })

  it('keeps the people picked when adding fails, and says why', async () => {
    const fake = withGroup(groupDetails('closed', 'admin')).fails('members:add', 'FORBIDDEN', 'Only admins can add people here.')
    const dialog = await openAdd(fake)
    const box = within(dialog).getByRole('combobox', { name: 'Add people' })
    await fireEvent.input(box, { target: { value: '+1 555 010 2000' } })
    await fireEvent.keyDown(box, { key: 'Enter' })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Name for +1 555 010 2000' }), { target: { value: 'Mary Jackson' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only admins can add people here.')
    expect(within(within(dialog).getByRole('list', { name: 'People to add' })).getByRole('listitem')).toHaveTextContent('+1 555 010 2000')
    expect(fake.callsTo('members:add')[0]?.candidates).toEqual([{ nickname: 'Mary Jackson', phone: '+1 555 010 2000' }])
    expect(within(dialog).getByRole('textbox', { name: 'Name for +1 555 010 2000' })).toHaveValue('Mary Jackson')
  })
})

describe('Members: profiles', () => {
  async function shown(open: (userId: string) => void): Promise<void> {
    new FakeApi().install()
    const details = groupDetails('closed', 'user')
    const group = new GroupModel('g1')
    group.details.set(details)
    render(MembersPanelWithProfiles, { props: { open, group, details } })
    await screen.findByRole('list', { name: 'Members' })
  }

  it('opens a member’s profile from the button that holds their avatar and name', async () => {
    const open = vi.fn()
    await shown(open)
    const grace = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')[1] as HTMLElement
    const button = within(grace).getByRole('button', { name: /^Grace/ })
    expect(within(button).getByText('G')).toHaveAttribute('aria-hidden', 'true')
    await fireEvent.click(button)
    expect(open).toHaveBeenCalledWith('u2')
  })

  it('shows names as plain text where nothing opens profiles', async () => {
    const details = groupDetails('closed', 'user')
    const group = new GroupModel('g1')
    group.details.set(details)
    new FakeApi().install()
    render(MembersPanel, { props: { group, details } })
    const grace = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')[1] as HTMLElement
    expect(grace).toHaveTextContent('Grace Hopper')
    expect(within(grace).queryByRole('button', { name: /^Grace/ })).toBeNull()
  })
})
