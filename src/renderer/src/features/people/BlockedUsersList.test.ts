// Settings ▸ Security ▸ Blocked users, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { BlockedUser } from '@shared/people'
import { FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const grace: BlockedUser = { id: 'u2', name: 'Grace Hopper', avatarUrl: null, blockedAt: 1_700_000_000 }
const alan: BlockedUser = { id: 'u3', name: 'Alan Turing', avatarUrl: null, blockedAt: 1_700_000_100 }

function signedIn(): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('people:blocked', [grace, alan])
}

async function openSettings(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
  return dialog
}

function unblockButton(list: HTMLElement, name: string): HTMLElement {
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(name))
  if (item === undefined) throw new Error(`${name} is not listed`)
  return within(item).getByRole('button', { name: 'Unblock' })
}

describe('Blocked users', () => {
  it('lists everyone the user blocks, each with Unblock', async () => {
    const fake = signedIn().returns('people:unblock', { ...grace, bio: '', canMessage: true, isContact: false, blockedByMe: false, sharedGroups: [] })
    const dialog = await openSettings(fake)
    const list = await within(dialog).findByRole('list', { name: 'Blocked users' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
    expect(unblockButton(list, 'Grace Hopper')).toHaveAccessibleDescription('Grace Hopper')

    await fireEvent.click(unblockButton(list, 'Grace Hopper'))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(fake.callsTo('people:unblock')).toEqual([{ userId: 'u2' }])
    expect(list).toHaveTextContent('Alan Turing')
  })

  it('says so when nobody is blocked', async () => {
    const dialog = await openSettings(signedIn().returns('people:blocked', []))
    expect(await within(dialog).findByText('You have not blocked anyone.')).toBeInTheDocument()
  })

  it('keeps someone listed when their unblock is refused, and says why', async () => {
    const fake = signedIn().fails('people:unblock', 'NETWORK', 'The service cannot be reached.')
    const dialog = await openSettings(fake)
    const list = await within(dialog).findByRole('list', { name: 'Blocked users' })
    await fireEvent.click(unblockButton(list, 'Alan Turing'))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached.')
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
  })

  it('says when the list could not be loaded, and tries again', async () => {
    const fake = signedIn().fails('people:blocked', 'NETWORK', 'The service cannot be reached.')
    const dialog = await openSettings(fake)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The blocked users could not be loaded. The service cannot be reached.')
    fake.returns('people:blocked', [alan])
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    expect(await within(dialog).findByRole('list', { name: 'Blocked users' })).toHaveTextContent('Alan Turing')
  })
})
