// Settings ▸ Security ▸ Signed-in apps, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { SignedInApp } from '@shared/account'
import { FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const desktop: SignedInApp = { id: '11', appId: 'parley-desktop', createdAt: 1_700_000_000 }
const phone: SignedInApp = { id: '12', appId: 'parley-phone', createdAt: 1_700_086_400 }

function signedIn(apps: SignedInApp[] = [desktop, phone]): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('security:signedInApps', apps)
}

async function openList(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
  return within(dialog).findByRole('list', { name: 'Signed-in apps' })
}

function signOutButton(list: HTMLElement, appId: string): HTMLElement {
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(appId))
  if (item === undefined) throw new Error(`${appId} is not listed`)
  return within(item).getByRole('button', { name: 'Sign out' })
}

/** Sign out, then the confirmation's own Sign out. */
async function signOut(list: HTMLElement, appId: string): Promise<void> {
  await fireEvent.click(signOutButton(list, appId))
  const question = await screen.findByRole('alertdialog', { name: `Sign out ${appId}?` })
  await fireEvent.click(within(question).getByRole('button', { name: 'Sign out' }))
}

const section = (): HTMLElement => screen.getByRole('group', { name: 'Signed-in apps' })

describe('Signed-in apps', () => {
  it('lists every app with its id and when it signed in, each with Sign out, and signs one out', async () => {
    const fake = signedIn().returns('security:signOutApp', [desktop])
    const list = await openList(fake)
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('parley-desktop')
    expect(items[0]?.querySelector('time')).toHaveAttribute('datetime', new Date(desktop.createdAt * 1000).toISOString())
    expect(signOutButton(list, 'parley-phone')).toHaveAccessibleDescription(/parley-phone/)

    await signOut(list, 'parley-phone')
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(fake.callsTo('security:signOutApp')).toEqual([{ id: '12' }])
    expect(list).toHaveTextContent('parley-desktop')
  })

  it('asks before signing an app out, and keeps it when the user cancels', async () => {
    const fake = signedIn()
    const list = await openList(fake)
    await fireEvent.click(signOutButton(list, 'parley-phone'))
    const question = await screen.findByRole('alertdialog', { name: 'Sign out parley-phone?' })
    expect(question).toHaveAccessibleDescription('It will need to sign in again. If it is this app, you go back to the sign-in screen.')
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(fake.callsTo('security:signOutApp')).toEqual([])
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
  })

  it('says why a sign-out was refused, and shows the list as it now stands', async () => {
    const fake = signedIn().fails('security:signOutApp', 'NOT_FOUND', 'That app was already signed out.')
    const list = await openList(fake)
    fake.returns('security:signedInApps', [desktop])
    await signOut(list, 'parley-phone')
    expect(await within(section()).findByRole('alert')).toHaveTextContent('That app was already signed out.')
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
  })

  it('keeps the list when a sign-out fails for another reason', async () => {
    const fake = signedIn().fails('security:signOutApp', 'NETWORK', 'Cannot reach the service.')
    const list = await openList(fake)
    await signOut(list, 'parley-phone')
    expect(await within(section()).findByRole('alert')).toHaveTextContent('Cannot reach the service.')
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
  })

  it('returns to the sign-in screen when this app signed itself out', async () => {
    const fake = signedIn().handle('security:signOutApp', () => {
      fake.emit('session:changed', { status: 'signedOut', notice: 'You signed this app out from Signed-in apps.' })
      return { ok: false, error: { code: 'UNAUTHENTICATED', message: 'You signed this app out. Sign in again to go on.' } }
    })
    const list = await openList(fake)
    await signOut(list, 'parley-desktop')
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    expect(screen.getByText('You signed this app out from Signed-in apps.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull()
  })

  it('says when the list could not be loaded, and tries again', async () => {
    const fake = signedIn().fails('security:signedInApps', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
    await fireEvent.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('tab', { name: 'Security' }))
    expect(await within(section()).findByText('The signed-in apps could not be loaded. Cannot reach the service.')).toBeInTheDocument()
    fake.returns('security:signedInApps', [desktop])
    await fireEvent.click(within(section()).getByRole('button', { name: 'Try again' }))
    expect(await within(section()).findByRole('list', { name: 'Signed-in apps' })).toHaveTextContent('parley-desktop')
  })
})
