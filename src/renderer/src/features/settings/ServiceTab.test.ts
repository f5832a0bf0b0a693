// Settings ▸ Service, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AddressCheck, ServiceSettings, ServiceSettingsView } from '@shared/service-settings'
import { reloadPage } from '$lib/page-reload'
import { FakeApi, desktopState, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

// jsdom cannot load a page again; what matters here is whether the model asks for it.
vi.mock('$lib/page-reload', () => ({ reloadPage: vi.fn() }))

beforeEach(() => {
  vi.mocked(reloadPage).mockClear()
})

const LOCAL: ServiceSettings = {
  baseUrl: 'http://127.0.0.1:8080/v3',
  v2Url: 'http://127.0.0.1:8080/v2',
  v4Url: 'http://127.0.0.1:8080/v4',
  imageServiceUrl: 'http://127.0.0.1:8080/image',
  pictureOrigins: '',
  pushUrl: 'http://127.0.0.1:8080/faye',
  pushWsUrl: 'ws://127.0.0.1:8080/faye',
  appId: 'parley-desktop',
  verifyToken: 'local-dev-attestation'
}
const REMOTE: ServiceSettings = {
  baseUrl: 'https://chat.example.com/v3',
  v2Url: 'https://chat.example.com/v2',
  v4Url: 'https://chat.example.com/v4',
  imageServiceUrl: 'https://img.example.com/',
  pictureOrigins: 'https://pictures.example.com',
  pushUrl: 'https://push.example.com/faye',
  pushWsUrl: 'wss://push.example.com/faye',
  appId: 'parley-desktop',
  verifyToken: 'remote-secret'
}
const FIELDS: [keyof ServiceSettings, string][] = [
  ['baseUrl', 'Base address'],
  ['v2Url', 'v2 address'],
  ['v4Url', 'v4 address'],
  ['imageServiceUrl', 'Image service address'],
  ['pictureOrigins', 'Picture origins'],
  ['pushUrl', 'Push address'],
  ['pushWsUrl', 'Push WebSocket address'],
  ['appId', 'App id'],
  ['verifyToken', 'Attestation value']
]

function signedIn(view: ServiceSettingsView = { settings: LOCAL, overriddenBy: {} }): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('desktop:get', desktopState()).returns('service:get', view)
}

async function openService(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Service' }))
  await within(dialog).findByRole('textbox', { name: 'Base address' })
  return dialog
}

async function type(dialog: HTMLElement, name: string, value: string): Promise<void> {
  await fireEvent.input(within(dialog).getByRole('textbox', { name }), { target: { value } })
}

async function typeAll(dialog: HTMLElement, settings: ServiceSettings): Promise<void> {
  for (const [key, name] of FIELDS) await type(dialog, name, settings[key])
}

describe('Settings ▸ Service', () => {
  it('shows the nine settings in force, each editable', async () => {
    const dialog = await openService(signedIn())
    for (const [key, name] of FIELDS) {
      const field = within(dialog).getByRole('textbox', { name })
      expect(field).toHaveValue(LOCAL[key])
      expect(field).not.toHaveAttribute('readonly')
    }
  })

  it('says at the field what the transport rule refuses as it is typed, and that a fixed one is fine', async () => {
    const dialog = await openService(signedIn())

    await type(dialog, 'v2 address', 'http://chat.example.com/v2')
    const v2 = within(dialog).getByRole('textbox', { name: 'v2 address' })
    expect(v2).toHaveAttribute('aria-invalid', 'true')
    expect(v2).toHaveAccessibleDescription(
      'http: to chat.example.com would send the access token unencrypted; use https:, or http: only to this computer (127.0.0.1, [::1], localhost).'
    )
    await type(dialog, 'Push WebSocket address', 'https://push.example.com/faye')
    expect(within(dialog).getByRole('textbox', { name: 'Push WebSocket address' })).toHaveAccessibleDescription(
      'A WebSocket address is needed here, not https:; use wss:, or ws: only to this computer (127.0.0.1, [::1], localhost).'
    )
    await type(dialog, 'App id', '')
    expect(within(dialog).getByRole('textbox', { name: 'App id' })).toHaveAccessibleDescription('The service needs an app id to sign in.')

    await type(dialog, 'v2 address', 'https://chat.example.com/v2')
    expect(v2).toHaveAttribute('aria-invalid', 'false')
    expect(v2).not.toHaveAccessibleDescription()
  })

  it('does not save while a field is wrong, and takes the person to the first one', async () => {
    const fake = signedIn()
    const dialog = await openService(fake)

    await type(dialog, 'v4 address', 'chat.example.com')
    await type(dialog, 'Image service address', 'ftp://img.example.com')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    const v4 = within(dialog).getByRole('textbox', { name: 'v4 address' })
    await waitFor(() => expect(v4).toHaveFocus())
    expect(v4).toHaveAccessibleDescription('Not a URL.')
    expect(within(dialog).getByRole('textbox', { name: 'Image service address' })).toHaveAttribute('aria-invalid', 'true')
    expect(fake.callsTo('service:save')).toEqual([])
  })

  it('tests what is typed and reports each address, ok or what went wrong', async () => {
    const checks: AddressCheck[] = [
      { setting: 'baseUrl', address: REMOTE.baseUrl, ok: true },
      { setting: 'v2Url', address: REMOTE.v2Url, ok: true },
      { setting: 'v4Url', address: REMOTE.v4Url, ok: true },
      { setting: 'imageServiceUrl', address: REMOTE.imageServiceUrl, ok: false, problem: 'the host name could not be found' },
      { setting: 'pushUrl', address: REMOTE.pushUrl, ok: true },
      { setting: 'pushWsUrl', address: REMOTE.pushWsUrl, ok: true }
    ]
    const fake = signedIn().returns('service:test', checks)
    const dialog = await openService(fake)
    await typeAll(dialog, REMOTE)

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }))

    expect(fake.callsTo('service:test')).toEqual([{ settings: REMOTE }])
    const results = await within(dialog).findByRole('list', { name: 'Connection test results' })
    expect(within(results).getAllByRole('listitem').map((item) => item.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Base address: answers as the service does.',
      'v2 address: answers as the service does.',
      'v4 address: answers as the service does.',
      'Image service address: the host name could not be found.',
      'Push address: answers as the service does.',
      'Push WebSocket address: answers as the service does.'
    ])
    expect(within(dialog).getByRole('status')).toHaveTextContent('1 of 6 addresses do not answer as the service does.')

    // What was tested no longer stands once an address changes.
    await type(dialog, 'Image service address', 'https://images.example.com/')
    expect(within(dialog).queryByRole('list', { name: 'Connection test results' })).toBeNull()
  })

  it('says when the test itself could not run', async () => {
    const fake = signedIn().fails('service:test', 'INTERNAL', 'Something went wrong on our side. Please try again.')
    const dialog = await openService(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The connection could not be tested. Something went wrong on our side. Please try again.')
  })

  it('saves what is typed, shows the settings main now uses, and says so', async () => {
    const fake = signedIn().returns('service:save', { settings: REMOTE, overriddenBy: {} })
    const dialog = await openService(fake)
    await typeAll(dialog, REMOTE)

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    await waitFor(() => expect(fake.callsTo('service:save')).toEqual([{ settings: REMOTE }]))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved. The app now uses these settings.')
    expect(within(dialog).getByRole('textbox', { name: 'Base address' })).toHaveValue(REMOTE.baseUrl)
  })

  it('says what the picture origins are for, and what is wrong with one as it is typed', async () => {
    const dialog = await openService(signedIn())
    const hint =
      'Other origins this deployment serves pictures from, such as https://pictures.example.com, separated by commas; empty for none. Pictures from anywhere else show as links. Saving a change here reloads the window.'
    const origins = within(dialog).getByRole('textbox', { name: 'Picture origins' })
    expect(origins).toHaveAccessibleDescription(hint)

    await type(dialog, 'Picture origins', 'https://pictures.example.com, http://cdn.example.com')
    expect(origins).toHaveAttribute('aria-invalid', 'true')
    expect(origins).toHaveAccessibleDescription(
      `${hint} http://cdn.example.com: http: to cdn.example.com would load pictures unencrypted; use https:, or http: only to this computer (127.0.0.1, [::1], localhost).`
    )
    await type(dialog, 'Picture origins', 'https://pictures.example.com, https://cdn.example.com')
    expect(origins).toHaveAttribute('aria-invalid', 'false')
  })

  it('loads the page again after a save that changes where pictures may load from, so its policy follows', async () => {
    const withOrigin = { ...LOCAL, pictureOrigins: 'https://pictures.example.com' }
    const fake = signedIn().returns('service:save', { settings: withOrigin, overriddenBy: {} })
    const dialog = await openService(fake)
    await type(dialog, 'Picture origins', withOrigin.pictureOrigins)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1))
  })

  it('leaves the page alone after a save that keeps the origins pictures load from', async () => {
    // The same origins, written another way, and another app id.
    const same = { ...LOCAL, imageServiceUrl: 'http://127.0.0.1:8080/pictures', appId: 'kiosk' }
    const fake = signedIn().returns('service:save', { settings: same, overriddenBy: {} })
    const dialog = await openService(fake)
    await type(dialog, 'App id', 'kiosk')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved. The app now uses these settings.')
    expect(reloadPage).not.toHaveBeenCalled()
  })

  it('says a save was refused, and keeps what was typed', async () => {
    const fake = signedIn().fails('service:save', 'VALIDATION', 'App id: the service needs an app id to sign in.')
    const dialog = await openService(fake)
    await typeAll(dialog, REMOTE)

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The settings were not saved. App id: the service needs an app id to sign in.')
    expect(within(dialog).getByRole('textbox', { name: 'Base address' })).toHaveValue(REMOTE.baseUrl)
  })

  it('shows a setting an environment variable decides as read-only, naming the variable', async () => {
    const dialog = await openService(signedIn({ settings: { ...LOCAL, appId: 'kiosk' }, overriddenBy: { appId: 'PARLEY_APP_ID' } }))

    const appId = within(dialog).getByRole('textbox', { name: 'App id' })
    expect(appId).toHaveValue('kiosk')
    expect(appId).toHaveAttribute('readonly')
    expect(appId).toHaveAccessibleDescription('Set by the environment variable PARLEY_APP_ID, which wins over what is saved here.')
    expect(within(dialog).getByRole('textbox', { name: 'Base address' })).not.toHaveAttribute('readonly')
  })

  it('says when the settings cannot be read, and tries again', async () => {
    const fake = signedIn().fails('service:get', 'INTERNAL', 'Something went wrong on our side. Please try again.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
    const dialog = screen.getByRole('dialog', { name: 'Settings' })
    await fireEvent.click(within(dialog).getByRole('tab', { name: 'Service' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Something went wrong on our side. Please try again.')

    fake.returns('service:get', { settings: LOCAL, overriddenBy: {} })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    expect(await within(dialog).findByRole('textbox', { name: 'Base address' })).toHaveValue(LOCAL.baseUrl)
  })
})
