// The sidebar's New group, Join with a link and Former groups, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PendingJoin } from '@shared/groups'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const PICTURE_URL = 'http://127.0.0.1:8080/image/i/0123456789abcdef0123456789abcdef'
const LINK = 'http://127.0.0.1:8080/join_group/7/AbCdEfGh'
const bookClub = conversation({ id: '7', name: 'Book club', groupType: 'closed', myRole: 'user' })

beforeEach(() => {
  // jsdom has no object URLs; the preview only needs an address.
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }))
})

afterEach(() => vi.unstubAllGlobals())

function signedIn(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [])
    .returns('conversations:open', { conversation: bookClub, messages: [], hasOlder: false, pending: [] })
}

async function openDialog(fake: FakeApi, name: string): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name }))
  return screen.getByRole('dialog', { name })
}

function png(): File {
  const bytes = new Uint8Array(16)
  bytes.set([0x89, 0x50, 0x4e, 0x47])
  return new File([bytes], 'cover.png', { type: 'image/png' })
}

async function choosePicture(dialog: HTMLElement, file: File): Promise<void> {
  const picker = dialog.querySelector<HTMLInputElement>('input[type="file"]')
  if (picker === null) throw new Error('the dialog has no file picker')
  Object.defineProperty(picker, 'files', { value: [file], configurable: true })
  await fireEvent.change(picker)
}

function pendingJoin(overrides: Partial<PendingJoin> = {}): PendingJoin {
  return { groupId: '7', link: LINK, question: 'Which book did you last read?', answer: 'Dune', requestedAt: 1_700_000_000, ...overrides }
}

describe('New group', () => {
  it('creates the group with its name, description, uploaded picture and share link, then opens it', async () => {
    const fake = signedIn().returns('groups:create', bookClub)
    const upload = fake.holds('uploads:start')
    const dialog = await openDialog(fake, 'New group')

    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group name' }), { target: { value: ' Book club ' } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Description' }), { target: { value: 'One book a month' } })
    await choosePicture(dialog, png())
    expect(within(dialog).getByRole('img', { name: 'Group avatar' })).toHaveAttribute('src', 'blob:preview')
    const uploadId = fake.callsTo('uploads:start')[0]?.uploadId ?? ''
    fake.emit('uploads:progress', { uploadId, sentBytes: 8, totalBytes: 16 })
    await waitFor(() => expect(within(dialog).getByRole('progressbar', { name: 'Uploading the picture' })).toHaveAttribute('value', '8'))
    // Not before the picture is in.
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled()

    upload.resolve({ url: PICTURE_URL })
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled())
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Share link' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))

    await waitFor(() => expect(fake.callsTo('conversations:open')).toEqual([{ conversationId: '7' }]))
    expect(fake.callsTo('groups:create')).toEqual([{ group: { name: 'Book club', description: 'One book a month', imageUrl: PICTURE_URL, share: true } }])
    expect(screen.queryByRole('dialog', { name: 'New group' })).not.toBeInTheDocument()
  })

  it('opens with focus in Group name, keeps what was typed when closed, and starts afresh once the group exists', async () => {
    const fake = signedIn().returns('groups:create', bookClub)
    const dialog = await openDialog(fake, 'New group')
    const name = within(dialog).getByRole('textbox', { name: 'Group name' })
    await waitFor(() => expect(name).toHaveFocus())
    await fireEvent.input(name, { target: { value: 'Book club' } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Description' }), { target: { value: 'Monthly' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(dialog).not.toHaveAttribute('open')

    await fireEvent.click(screen.getByRole('button', { name: 'New group' }))
    expect(within(dialog).getByRole('textbox', { name: 'Group name' })).toHaveValue('Book club')
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue('Monthly')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(fake.callsTo('conversations:open')).toEqual([{ conversationId: '7' }]))

    await fireEvent.click(screen.getByRole('button', { name: 'New group' }))
    expect(within(dialog).getByRole('textbox', { name: 'Group name' })).toHaveValue('')
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue('')
  })

  it('asks for a name before asking the service', async () => {
    const fake = signedIn()
    const dialog = await openDialog(fake, 'New group')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give the group a name.')
    expect(fake.callsTo('groups:create')).toEqual([])
  })

  it('keeps what was typed when the service refuses, and says why', async () => {
    const fake = signedIn().fails('groups:create', 'VALIDATION', 'The name is too long.')
    const dialog = await openDialog(fake, 'New group')
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group name' }), { target: { value: 'Book club' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The name is too long.')
    expect(within(dialog).getByRole('textbox', { name: 'Group name' })).toHaveValue('Book club')
    expect(fake.callsTo('conversations:open')).toEqual([])
  })

  it('says why a picture could not be uploaded, and creates the group without it', async () => {
    const fake = signedIn().fails('uploads:start', 'NETWORK', 'The image service cannot be reached.').returns('groups:create', bookClub)
    const dialog = await openDialog(fake, 'New group')
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group name' }), { target: { value: 'Book club' } })
    await choosePicture(dialog, png())
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The picture could not be uploaded. The image service cannot be reached.')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(fake.callsTo('groups:create')[0]?.group.imageUrl).toBeNull())
  })
})

describe('Join with a link', () => {
  it('says the group may ask a question before sending without an answer, then opens the group once joined', async () => {
    const fake = signedIn()
      .returns('groups:pendingJoins', [])
      .returns('groups:checkLink', { link: LINK })
      .returns('groups:join', { status: 'joined', conversation: bookClub })
    const dialog = await openDialog(fake, 'Join with a link')
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group link' }), { target: { value: ` ${LINK} ` } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))

    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'The group may ask why you want to join, and an answer cannot be added once the request is sent. Write it in Answer now, or join without one.'
    )
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveFocus())
    expect(fake.callsTo('groups:checkLink')).toEqual([{ link: LINK }])
    expect(fake.callsTo('groups:join')).toEqual([])

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join without an answer' }))
    await waitFor(() => expect(fake.callsTo('conversations:open')).toEqual([{ conversationId: '7' }]))
    expect(fake.callsTo('groups:join')).toEqual([{ link: LINK, answer: null }])
  })

  it('takes the answer given once told the group may ask, and tells again for another link', async () => {
    const fake = signedIn()
      .returns('groups:pendingJoins', [])
      .returns('groups:checkLink', { link: LINK })
      .returns('groups:join', { status: 'pending', request: pendingJoin() })
    const dialog = await openDialog(fake, 'Join with a link')
    const link = within(dialog).getByRole('textbox', { name: 'Group link' })
    await fireEvent.input(link, { target: { value: LINK } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))
    await within(dialog).findByRole('button', { name: 'Join without an answer' })

    // Another link is another group, which may ask something else.
    await fireEvent.input(link, { target: { value: `${LINK}x` } })
    expect(within(dialog).getByRole('button', { name: 'Join' })).toBeInTheDocument()
    expect(within(dialog).queryByText(/The group may ask/)).toBeNull()
    await fireEvent.input(link, { target: { value: LINK } })

    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Answer' }), { target: { value: 'Dune' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))
    await within(dialog).findByText(/Your request to join is waiting for approval/)
    expect(fake.callsTo('groups:join')).toEqual([{ link: LINK, answer: 'Dune' }])
    expect(fake.callsTo('groups:checkLink')).toEqual([{ link: LINK }])
  })

  it('shows a request waiting for approval, with the others this device waits on, and forgets one', async () => {
    const fake = signedIn()
      .returns('groups:pendingJoins', [])
      .returns('groups:join', { status: 'pending', request: pendingJoin() })
    const dialog = await openDialog(fake, 'Join with a link')
    fake.returns('groups:pendingJoins', [pendingJoin()]).returns('groups:forgetPendingJoin', [])

    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group link' }), { target: { value: LINK } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Answer' }), { target: { value: 'Dune' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))

    expect(await within(dialog).findByRole('status')).toHaveTextContent('Your request to join is waiting for approval. The group asks: “Which book did you last read?”.')
    expect(fake.callsTo('groups:join')).toEqual([{ link: LINK, answer: 'Dune' }])
    const waiting = within(dialog).getByRole('list', { name: 'Waiting for approval' })
    expect(within(waiting).getByRole('listitem')).toHaveTextContent(LINK)
    expect(fake.callsTo('conversations:open')).toEqual([])

    await fireEvent.click(within(waiting).getByRole('button', { name: `Forget the request made through ${LINK}` }))
    await waitFor(() => expect(within(dialog).queryByRole('list', { name: 'Waiting for approval' })).not.toBeInTheDocument())
    expect(fake.callsTo('groups:forgetPendingJoin')).toEqual([{ groupId: '7' }])
  })

  it('makes what New group and Join with a link keep only when first opened, and reads the waiting requests then', async () => {
    const fake = signedIn().returns('groups:pendingJoins', [])
    await startApp(fake)
    await screen.findByRole('button', { name: 'Join with a link' })
    expect(screen.queryByRole('textbox', { name: 'Group name', hidden: true })).toBeNull()
    expect(screen.queryByRole('textbox', { name: 'Group link', hidden: true })).toBeNull()

    await fireEvent.click(screen.getByRole('button', { name: 'Join with a link' }))
    expect(within(screen.getByRole('dialog', { name: 'Join with a link' })).getByRole('textbox', { name: 'Group link' })).toBeInTheDocument()
    expect(fake.callsTo('groups:pendingJoins')).toHaveLength(1)
    expect(screen.queryByRole('textbox', { name: 'Group name', hidden: true })).toBeNull()
  })

  it('opens with focus in the link, keeps the link and answer when closed, and says the answer must be given now', async () => {
    const fake = signedIn().returns('groups:pendingJoins', [])
    const dialog = await openDialog(fake, 'Join with a link')
    const link = within(dialog).getByRole('textbox', { name: 'Group link' })
    await waitFor(() => expect(link).toHaveFocus())
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveAccessibleDescription(
      'Some groups ask why you want to join. Answer now if it does: an answer cannot be added once the request is made.'
    )
    await fireEvent.input(link, { target: { value: LINK } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Answer' }), { target: { value: 'Dune' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(dialog).not.toHaveAttribute('open')

    await fireEvent.click(screen.getByRole('button', { name: 'Join with a link' }))
    expect(within(dialog).getByRole('textbox', { name: 'Group link' })).toHaveValue(LINK)
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue('Dune')
    // The waiting requests are read again on each opening.
    expect(fake.callsTo('groups:pendingJoins')).toHaveLength(2)
  })

  it('says a request that went without an answer to the group’s question cannot have one added now', async () => {
    const fake = signedIn()
      .returns('groups:pendingJoins', [])
      .returns('groups:checkLink', { link: LINK })
      .returns('groups:join', { status: 'pending', request: pendingJoin({ answer: null }) })
    const dialog = await openDialog(fake, 'Join with a link')
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group link' }), { target: { value: LINK } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))
    await fireEvent.click(await within(dialog).findByRole('button', { name: 'Join without an answer' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'The group asks: “Which book did you last read?”. Your request went without an answer, and one cannot be added to it now.'
    )
    // The request is made: the form starts afresh.
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Group link' })).toHaveValue(''))
  })

  it('says why a link was refused', async () => {
    const fake = signedIn().returns('groups:pendingJoins', []).fails('groups:join', 'NOT_FOUND', 'This link does not lead to a group any more.')
    const dialog = await openDialog(fake, 'Join with a link')
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group link' }), { target: { value: LINK } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Answer' }), { target: { value: 'Dune' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This link does not lead to a group any more.')
  })

  it('says why main refused a link that is not the service’s own, before anything was sent, and keeps it', async () => {
    const refused = 'This link is not one of your service’s: it leads to evil.example, and your service’s group links begin with http://127.0.0.1:8080/join_group/. Nothing was sent.'
    const foreign = 'https://evil.example/join_group/7/AbCdEfGh'
    const fake = signedIn().returns('groups:pendingJoins', []).fails('groups:checkLink', 'VALIDATION', refused)
    const dialog = await openDialog(fake, 'Join with a link')
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Group link' }), { target: { value: foreign } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refused)
    expect(within(dialog).queryByText(/The group may ask/)).toBeNull()
    expect(within(dialog).getByRole('textbox', { name: 'Group link' })).toHaveValue(foreign)
    expect(fake.callsTo('groups:join')).toEqual([])
  })
})

describe('Former groups', () => {
  it('lists the groups the user left, and rejoining one opens it', async () => {
    const fake = signedIn()
      .returns('groups:former', [
        { id: '7', name: 'Book club', avatarUrl: null },
        { id: '8', name: 'Climbing', avatarUrl: null }
      ])
      .returns('groups:rejoin', bookClub)
    const dialog = await openDialog(fake, 'Former groups')
    const list = await within(dialog).findByRole('list', { name: 'Former groups' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => item.textContent?.trim())).toEqual([expect.stringContaining('Book club'), expect.stringContaining('Climbing')])

    await fireEvent.click(within(items[0] as HTMLElement).getByRole('button', { name: 'Rejoin' }))
    await waitFor(() => expect(fake.callsTo('conversations:open')).toEqual([{ conversationId: '7' }]))
    expect(fake.callsTo('groups:rejoin')).toEqual([{ groupId: '7' }])
  })

  it('says why a group could not be rejoined, and keeps it listed', async () => {
    const fake = signedIn()
      .returns('groups:former', [{ id: '7', name: 'Book club', avatarUrl: null }])
      .fails('groups:rejoin', 'FORBIDDEN', 'You were banned from this group.')
    const dialog = await openDialog(fake, 'Former groups')
    await fireEvent.click(await within(dialog).findByRole('button', { name: 'Rejoin' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You were banned from this group.')
    expect(within(dialog).getByRole('listitem')).toHaveTextContent('Book club')
  })

  it('offers to try again when the list cannot be loaded', async () => {
    const fake = signedIn().fails('groups:former', 'NETWORK', 'The service cannot be reached.')
    const dialog = await openDialog(fake, 'Former groups')
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached.')
    fake.returns('groups:former', [])
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    expect(await within(dialog).findByText('You have not left any group.')).toBeInTheDocument()
  })
})
