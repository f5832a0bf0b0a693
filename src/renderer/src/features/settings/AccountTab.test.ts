// Settings ▸ Account, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Account } from '@shared/account'
import { FakeApi, desktopState, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const ada: Account = {
  id: me.id,
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  bio: 'Notes on the engine.',
  avatarUrl: null,
  twoStep: { enabled: false, phoneHint: null }
}
const imageUrl = 'http://127.0.0.1:8080/image/i/0123456789abcdef0123456789abcdef'

function signedIn(): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('desktop:get', desktopState()).returns('account:get', ada)
}

async function openAccount(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Account' }))
  await within(dialog).findByRole('textbox', { name: 'Name' })
  return dialog
}

async function type(dialog: HTMLElement, name: string, value: string): Promise<void> {
  await fireEvent.input(within(dialog).getByRole('textbox', { name }), { target: { value } })
}

function pickFile(dialog: HTMLElement, file: File): Promise<boolean> {
  const picker = dialog.querySelector<HTMLInputElement>('input[type="file"]')
  if (picker === null) throw new Error('no file picker')
  Object.defineProperty(picker, 'files', { value: [file], configurable: true })
  return fireEvent.change(picker)
}

function png(): File {
  const bytes = new Uint8Array(16)
  bytes.set([0x89, 0x50, 0x4e, 0x47])
  return new File([bytes], 'me.png', { type: 'image/png' })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Settings ▸ Account', () => {
  it('shows the saved profile', async () => {
    const dialog = await openAccount(signedIn())

    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace')
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.test')
    expect(within(dialog).getByRole('textbox', { name: 'Bio' })).toHaveValue('Notes on the engine.')
    expect(within(dialog).getByRole('textbox', { name: 'Bio' })).toHaveAccessibleDescription('Up to 500 characters.')
    expect(within(dialog).getByRole('button', { name: 'Change avatar' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Remove avatar' })).toBeNull()
  })

  it('saves only what changed, and says so', async () => {
    const fake = signedIn().returns('account:updateProfile', { status: 'saved', account: { ...ada, name: 'Ada King', bio: 'Poetical science.' } })
    const dialog = await openAccount(fake)

    await type(dialog, 'Name', 'Ada King')
    await type(dialog, 'Bio', 'Poetical science.')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))

    await waitFor(() => expect(fake.callsTo('account:updateProfile')).toEqual([{ changes: { name: 'Ada King', bio: 'Poetical science.' } }]))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Your profile was saved.')
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada King')
  })

  it('shows its own checks at each field before asking main, and focuses the first', async () => {
    const fake = signedIn()
    const dialog = await openAccount(fake)

    await type(dialog, 'Name', ' ')
    await type(dialog, 'Email', 'ada.example.test')
    await type(dialog, 'Bio', 'x'.repeat(501))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))

    const name = within(dialog).getByRole('textbox', { name: 'Name' })
    await waitFor(() => expect(name).toHaveFocus())
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(name).toHaveAccessibleDescription('Write your name.')
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription('Write an e-mail address, with an @ in it.')
    expect(within(dialog).getByRole('textbox', { name: 'Bio' })).toHaveAccessibleDescription('Keep your bio to 500 characters.')
    expect(fake.callsTo('account:updateProfile')).toEqual([])

    await type(dialog, 'Name', 'Ada')
    expect(name).toHaveAttribute('aria-invalid', 'false')
    expect(name).not.toHaveAccessibleDescription()
  })

  it('shows the service\'s refusal at the field it names, and keeps what was typed', async () => {
    const message = 'This e-mail address belongs to another account, or the service cannot use it. Try another.'
    const fake = signedIn().returns('account:updateProfile', { status: 'invalid', field: 'email', message })
    const dialog = await openAccount(fake)

    await type(dialog, 'Email', 'grace@example.test')
    await type(dialog, 'Name', 'Ada King')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))

    const email = within(dialog).getByRole('textbox', { name: 'Email' })
    await waitFor(() => expect(email).toHaveAccessibleDescription(message))
    expect(email).toHaveFocus()
    expect(email).toHaveValue('grace@example.test')
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada King')
    expect(within(dialog).queryByRole('status')).toBeNull()
  })

  it('says a save failed for no field\'s fault, and keeps what was typed', async () => {
    const fake = signedIn().fails('account:updateProfile', 'NETWORK', 'Cannot reach the service.')
    const dialog = await openAccount(fake)

    await type(dialog, 'Name', 'Ada King')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your profile was not saved. Cannot reach the service.')
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada King')
  })

  it('uploads a new avatar with a preview, and saves its address', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }))
    const fake = signedIn().returns('account:updateProfile', { status: 'saved', account: { ...ada, avatarUrl: imageUrl } })
    const upload = fake.holds('uploads:start')
    const dialog = await openAccount(fake)

    await pickFile(dialog, png())
    expect(within(dialog).getByRole('img', { name: 'Your avatar' })).toHaveAttribute('src', 'blob:preview')
    expect(within(dialog).getByRole('progressbar', { name: 'Uploading the avatar' })).toBeInTheDocument()

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))
    expect(within(dialog).getByRole('button', { name: 'Change avatar' })).toHaveAccessibleDescription('Wait until the picture has uploaded, then save.')
    expect(fake.callsTo('account:updateProfile')).toEqual([])

    upload.resolve({ url: imageUrl })
    await waitFor(() => expect(within(dialog).queryByRole('progressbar')).toBeNull())
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(fake.callsTo('account:updateProfile')).toEqual([{ changes: { avatarUrl: imageUrl } }]))
    await waitFor(() => expect(within(dialog).getByRole('img', { name: 'Your avatar' })).toHaveAttribute('src', imageUrl))
  })

  it('removes the avatar', async () => {
    const fake = signedIn()
      .returns('account:get', { ...ada, avatarUrl: imageUrl })
      .returns('account:updateProfile', { status: 'saved', account: ada })
    const dialog = await openAccount(fake)

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove avatar' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }))

    await waitFor(() => expect(fake.callsTo('account:updateProfile')).toEqual([{ changes: { avatarUrl: null } }]))
    expect(within(dialog).queryByRole('img', { name: 'Your avatar' })).toBeNull()
  })

  it('says so when the profile cannot be loaded, and tries again', async () => {
    const fake = signedIn().fails('account:get', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
    const dialog = screen.getByRole('dialog', { name: 'Settings' })
    await fireEvent.click(within(dialog).getByRole('tab', { name: 'Account' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your profile could not be loaded. Cannot reach the service.')
    fake.returns('account:get', ada)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    expect(await within(dialog).findByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace')
  })
})
