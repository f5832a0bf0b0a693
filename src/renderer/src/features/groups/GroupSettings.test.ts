// Group settings as each role sees it in each type of group, and what a save, a refusal, a
// transfer, a deletion and leaving do, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { GroupDetails } from '@shared/groups'
import type { FakeApi } from '../../testing/fake-api'
import { groupDetails, withGroup } from '../../testing/groups'
import { startApp } from '../../testing/start-app'
import { stubClipboard } from '../../testing/clipboard'

afterEach(() => vi.unstubAllGlobals())

async function openSettings(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  await fireEvent.click(await screen.findByRole('button', { name: 'Group settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Group settings' })
  await within(dialog).findByRole('textbox', { name: 'Group name' })
  return dialog
}

function controls(dialog: HTMLElement): HTMLElement[] {
  return [
    within(dialog).getByRole('textbox', { name: 'Group name' }),
    within(dialog).getByRole('textbox', { name: 'Description' }),
    within(dialog).getByRole('combobox', { name: 'Group type' }),
    within(dialog).getByRole('checkbox', { name: 'Require approval' }),
    within(dialog).getByRole('checkbox', { name: 'Share link' }),
    within(dialog).getByRole('combobox', { name: 'Who may delete messages' })
  ]
}

describe('Group settings: what each role is offered', () => {
  it('shows an ordinary member of a closed group the settings read-only, with Leave group and nothing of the owner’s', async () => {
    const dialog = await openSettings(withGroup(groupDetails('closed', 'user')))
    for (const control of controls(dialog)) expect(control).toBeDisabled()
    expect(within(dialog).getByRole('textbox', { name: 'Group name' })).toHaveValue('Book club')
    expect(within(dialog).getByRole('combobox', { name: 'Group type' })).toHaveValue('closed')
    expect(within(dialog).getByText('Only the group’s admins can change these settings.')).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull()
    expect(within(dialog).queryByRole('button', { name: 'Choose picture' })).toBeNull()
    expect(within(dialog).queryByRole('button', { name: 'Transfer ownership' })).toBeNull()
    expect(within(dialog).queryByRole('button', { name: 'Delete group' })).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Leave group' })).toBeEnabled()
  })

  it('lets an ordinary member of a private group change the settings', async () => {
    const dialog = await openSettings(withGroup(groupDetails('private', 'user')))
    for (const control of controls(dialog)) expect(control).toBeEnabled()
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled()
    expect(within(dialog).queryByRole('button', { name: 'Delete group' })).toBeNull()
  })

  it('lets an admin of a closed group change the settings, but not transfer or delete it', async () => {
    const dialog = await openSettings(withGroup(groupDetails('closed', 'admin')))
    for (const control of controls(dialog)) expect(control).toBeEnabled()
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled()
    expect(within(dialog).queryByRole('button', { name: 'Transfer ownership' })).toBeNull()
    expect(within(dialog).queryByRole('button', { name: 'Delete group' })).toBeNull()
  })

  it('offers the owner transfer and deletion, and tells them to transfer before leaving', async () => {
    const dialog = await openSettings(withGroup(groupDetails('announcement', 'owner')))
    for (const control of controls(dialog)) expect(control).toBeEnabled()
    expect(within(dialog).getByRole('button', { name: 'Transfer ownership' })).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Delete group' })).toBeInTheDocument()
    const leave = within(dialog).getByRole('button', { name: 'Leave group' })
    expect(leave).toBeDisabled()
    expect(leave).toHaveAccessibleDescription('You own this group: transfer ownership to another member before you leave.')
  })
})

describe('Group settings: saving', () => {
  it('sends only what changed, then shows what the service answered', async () => {
    const before = groupDetails('closed', 'admin')
    const after: GroupDetails = { ...before, name: 'Readers', type: 'announcement', requiresApproval: true, joinQuestion: 'Why?', shareUrl: 'http://127.0.0.1:8080/join_group/g1/AbCdEfGh' }
    const fake = withGroup(before).returns('groups:update', after)
    const dialog = await openSettings(fake)

    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group name' }), { target: { value: ' Readers ' } })
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Group type' }), { target: { value: 'announcement' } })
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Require approval' }))
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Join question' }), { target: { value: 'Why?' } })
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Share link' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved.')
    expect(fake.callsTo('groups:update')).toEqual([
      { groupId: 'g1', changes: { name: 'Readers', type: 'announcement', requiresApproval: true, joinQuestion: 'Why?', share: true } }
    ])
    expect(within(dialog).getByRole('textbox', { name: 'Group name' })).toHaveValue('Readers')
    expect(within(dialog).getByRole('textbox', { name: 'The group’s link' })).toHaveValue('http://127.0.0.1:8080/join_group/g1/AbCdEfGh')
  })

  it('turning approval off turns the join question off too, so it cannot silently come back', async () => {
    const before: GroupDetails = { ...groupDetails('closed', 'admin'), requiresApproval: true, joinQuestion: 'Why?' }
    const fake = withGroup(before).returns('groups:update', { ...before, requiresApproval: false, joinQuestion: null })
    const dialog = await openSettings(fake)
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Require approval' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved.')
    expect(fake.callsTo('groups:update')).toEqual([{ groupId: 'g1', changes: { requiresApproval: false, joinQuestion: null } }])
  })

  it('keeps the form as edited when the service refuses, with why, and changes nothing else on screen', async () => {
    const fake = withGroup(groupDetails('closed', 'admin')).fails('groups:update', 'FORBIDDEN', 'Only the group’s admins can change it.')
    const dialog = await openSettings(fake)

    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group name' }), { target: { value: 'Readers' } })
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Who may delete messages' }), { target: { value: 'admin' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only the group’s admins can change it.')
    expect(fake.callsTo('groups:update')).toEqual([{ groupId: 'g1', changes: { name: 'Readers', deletionMode: ['admin'] } }])
    expect(within(dialog).getByRole('textbox', { name: 'Group name' })).toHaveValue('Readers')
    expect(within(dialog).getByRole('combobox', { name: 'Who may delete messages' })).toHaveValue('admin')
    expect(within(dialog).queryByRole('status')).toBeNull()
    // The conversation keeps its saved name.
    expect(screen.getByRole('heading', { name: 'Book club' })).toBeInTheDocument()
  })

  it('uploads a new picture and saves its address; removing the picture saves none', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }))
    const url = 'http://127.0.0.1:8080/image/i/0123456789abcdef0123456789abcdef'
    const before = groupDetails('closed', 'admin', { imageUrl: 'http://127.0.0.1:8080/image/i/ffffffffffffffffffffffffffffffff' })
    const fake = withGroup(before).returns('uploads:start', { url }).returns('groups:update', { ...before, imageUrl: url })
    const dialog = await openSettings(fake)

    const picker = dialog.querySelector<HTMLInputElement>('input[type="file"]')
    if (picker === null) throw new Error('no file picker')
    const bytes = new Uint8Array(16)
    bytes.set([0x89, 0x50, 0x4e, 0x47])
    Object.defineProperty(picker, 'files', { value: [new File([bytes], 'cover.png', { type: 'image/png' })], configurable: true })
    await fireEvent.change(picker)
    await waitFor(() => expect(fake.callsTo('uploads:start')).toHaveLength(1))
    await waitFor(() => expect(within(dialog).queryByRole('progressbar')).toBeNull())
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(fake.callsTo('groups:update')).toEqual([{ groupId: 'g1', changes: { imageUrl: url } }]))
    await waitFor(() => expect(within(dialog).getByRole('img', { name: 'Group avatar' })).toHaveAttribute('src', url))

    fake.returns('groups:update', { ...before, imageUrl: null })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove picture' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(fake.callsTo('groups:update')[1]).toEqual({ groupId: 'g1', changes: { imageUrl: null } }))
  })

  it('refuses an empty name before asking the service', async () => {
    const fake = withGroup(groupDetails('private', 'user'))
    const dialog = await openSettings(fake)
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group name' }), { target: { value: '  ' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A group needs a name.')
    expect(fake.callsTo('groups:update')).toEqual([])
  })

  it('copies the share link', async () => {
    const writeText = vi.fn(async (_text: string) => undefined)
    stubClipboard(writeText)
    const url = 'http://127.0.0.1:8080/join_group/g1/AbCdEfGh'
    const dialog = await openSettings(withGroup(groupDetails('closed', 'user', { shareUrl: url })))
    expect(within(dialog).getByRole('checkbox', { name: 'Share link' })).toBeChecked()
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Link copied.')
    expect(writeText).toHaveBeenCalledWith(url)
  })

  it('says so when the service cannot load the group, and tries again', async () => {
    const fake = withGroup(groupDetails('closed', 'user')).fails('groups:get', 'NETWORK', 'The service cannot be reached.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    await fireEvent.click(await screen.findByRole('button', { name: 'Group settings' }))
    const dialog = screen.getByRole('dialog', { name: 'Group settings' })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached.')
    fake.returns('groups:get', groupDetails('closed', 'user'))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    expect(await within(dialog).findByRole('textbox', { name: 'Group name' })).toHaveValue('Book club')
  })
})

describe('Group settings: the owner’s and everyone’s ways out', () => {
  it('deletes the group only once its name is typed, then closes it', async () => {
    const fake = withGroup(groupDetails('closed', 'owner')).returns('groups:destroy', null)
    const dialog = await openSettings(fake)
    const remove = within(dialog).getByRole('button', { name: 'Delete group' })
    expect(remove).toBeDisabled()
    const confirmation = within(dialog).getByRole('textbox', { name: 'Type “Book club” to delete the group for everyone' })
    // The name is isolated from the words after it, whatever overrides it leaves open.
    expect(dialog.querySelector(`label[for="${confirmation.id}"] bdi`)?.textContent).toBe('Book club')
    await fireEvent.input(confirmation, { target: { value: 'Book clu' } })
    expect(remove).toBeDisabled()
    await fireEvent.input(confirmation, { target: { value: 'Book club' } })
    await fireEvent.click(remove)

    await waitFor(() => expect(screen.getByRole('heading', { name: 'No conversation selected' })).toBeInTheDocument())
    expect(fake.callsTo('groups:destroy')).toEqual([{ groupId: 'g1' }])
  })

  it('takes the name as the owner sees it, without the invisible direction marks it was pasted with', async () => {
    const fake = withGroup(groupDetails('closed', 'owner', { name: 'Book club \u200fשלום\u200e' })).returns('groups:destroy', null)
    const dialog = await openSettings(fake)
    const remove = within(dialog).getByRole('button', { name: 'Delete group' })
    const confirmation = within(dialog).getByRole('textbox', { name: /to delete the group for everyone/ })
    await fireEvent.input(confirmation, { target: { value: 'Book club שלו' } })
    expect(remove).toBeDisabled()
    await fireEvent.input(confirmation, { target: { value: ' Book club  שלום ' } })
    expect(remove).toBeEnabled()
    await fireEvent.click(remove)
    await waitFor(() => expect(fake.callsTo('groups:destroy')).toEqual([{ groupId: 'g1' }]))
  })

  it('says why a deletion was refused, beside it, and keeps the group', async () => {
    const fake = withGroup(groupDetails('closed', 'owner')).fails('groups:destroy', 'FORBIDDEN', 'Only the group’s owner can delete it.')
    const dialog = await openSettings(fake)
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Type “Book club” to delete the group for everyone' }), { target: { value: 'Book club' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Delete group' }))
    const ownership = within(dialog).getByRole('region', { name: 'Ownership' })
    expect(await within(ownership).findByRole('alert')).toHaveTextContent('Only the group’s owner can delete it.')
    expect(screen.getByRole('heading', { name: 'Book club', level: 2 })).toBeInTheDocument()
  })

  it('offers the owner Transfer ownership at once, which lists the members to choose the new owner', async () => {
    const before = groupDetails('closed', 'owner')
    const after: GroupDetails = {
      ...before,
      myRole: 'admin',
      ownerId: 'u4',
      members: before.members.map((m) => (m.userId === 'u4' ? { ...m, role: 'owner' } : m.membershipId === 'ms1' ? { ...m, role: 'admin' } : m))
    }
    const fake = withGroup(before).returns('groups:transferOwnership', after)
    const dialog = await openSettings(fake)
    const transfer = within(dialog).getByRole('button', { name: 'Transfer ownership' })
    expect(transfer).toBeEnabled()
    await fireEvent.click(transfer)

    const choose = screen.getByRole('dialog', { name: 'Transfer ownership' })
    const owners = within(choose).getByRole('group', { name: 'New owner' })
    expect(within(owners).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent?.trim())).toEqual(['Grace', 'Alan', 'Linus'])
    await waitFor(() => expect(within(owners).getByRole('radio', { name: 'Grace' })).toHaveFocus())
    const makeOwner = within(choose).getByRole('button', { name: 'Make owner' })
    expect(makeOwner).toBeDisabled()
    await fireEvent.click(within(owners).getByRole('radio', { name: 'Linus' }))
    await fireEvent.click(makeOwner)

    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Delete group' })).toBeNull())
    expect(fake.callsTo('groups:transferOwnership')).toEqual([{ groupId: 'g1', userId: 'u4' }])
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Transfer ownership' })).toBeNull())
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Leave group' })).toBeEnabled())
  })

  it('keeps Transfer ownership open with why when the service refuses, and Cancel changes nothing', async () => {
    const fake = withGroup(groupDetails('closed', 'owner')).fails('groups:transferOwnership', 'NETWORK', 'The service cannot be reached.')
    const dialog = await openSettings(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }))
    const choose = screen.getByRole('dialog', { name: 'Transfer ownership' })
    await fireEvent.click(within(choose).getByRole('radio', { name: 'Alan' }))
    await fireEvent.click(within(choose).getByRole('button', { name: 'Make owner' }))
    expect(await within(choose).findByRole('alert')).toHaveTextContent('The service cannot be reached.')
    await fireEvent.click(within(choose).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog', { name: 'Transfer ownership' })).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Delete group' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('alert')).toBeNull()
  })

  it('leaves the group at once, since Former groups undoes it, and says so where the conversation was', async () => {
    const fake = withGroup(groupDetails('closed', 'user')).returns('groups:leave', null)
    const dialog = await openSettings(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Leave group' }))

    expect(screen.queryByRole('alertdialog')).toBeNull()
    await waitFor(() => expect(screen.getByRole('heading', { name: 'No conversation selected' })).toBeInTheDocument())
    expect(fake.callsTo('groups:leave')).toEqual([{ groupId: 'g1' }])
    const notice = screen.getByText((_, element) => element?.getAttribute('role') === 'status' && element.textContent === 'You left Book club. You can rejoin it from Former groups.')
    // The group's name is what people wrote: isolated from the app's words around it.
    expect(notice.querySelector('bdi')?.textContent).toBe('Book club')
  })

  it('says why leaving was refused, and stays in the group', async () => {
    const fake = withGroup(groupDetails('closed', 'user')).fails('groups:leave', 'NETWORK', 'The service cannot be reached.')
    const dialog = await openSettings(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Leave group' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached.')
    expect(screen.getByRole('heading', { name: 'Book club' })).toBeInTheDocument()
  })
})
