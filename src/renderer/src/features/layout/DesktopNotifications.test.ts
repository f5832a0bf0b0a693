import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PageNotification } from '@shared/window-api'
import { conversation, desktopState, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

/** The page's `Notification`, recording what is made of it, with a permission the test sets. */
class FakeNotification {
  static permission: NotificationPermission = 'granted'
  static answer: NotificationPermission = 'granted'
  static made: FakeNotification[] = []
  static asked = 0

  static requestPermission(): Promise<NotificationPermission> {
    FakeNotification.asked++
    FakeNotification.permission = FakeNotification.answer
    return Promise.resolve(FakeNotification.answer)
  }

  onclick: ((event: Event) => void) | null = null
  onclose: ((event: Event) => void) | null = null
  closed = false

  constructor(
    readonly title: string,
    readonly options: NotificationOptions & { renotify?: boolean }
  ) {
    FakeNotification.made.push(this)
  }

  close(): void {
    this.closed = true
    this.onclose?.(new Event('close'))
  }
}

const bookClub = conversation({ id: 'g1', name: 'Book club' })

function signedIn(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub])
    .returns('conversations:open', { conversation: bookClub, messages: [], hasOlder: false, pending: [] })
}

function fromGrace(overrides: Partial<PageNotification> = {}): PageNotification {
  return { key: 'conversation:g1', conversationId: 'g1', title: 'Book club', body: 'Grace: Chapter 4?', silent: false, ...overrides }
}

beforeEach(() => {
  FakeNotification.permission = 'granted'
  FakeNotification.answer = 'granted'
  FakeNotification.made = []
  FakeNotification.asked = 0
  vi.stubGlobal('Notification', FakeNotification)
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('notifications in the page', () => {
  it('shows what main sends, one per conversation under its key', async () => {
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })

    fake.emit('notifications:show', fromGrace())

    expect(FakeNotification.made).toHaveLength(1)
    const shown = FakeNotification.made[0]
    expect(shown?.title).toBe('Book club')
    expect(shown?.options).toMatchObject({ body: 'Grace: Chapter 4?', tag: 'conversation:g1', silent: false, renotify: true })
  })

  it('keeps a silent notification silent: it replaces the last without alerting again', async () => {
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })

    fake.emit('notifications:show', fromGrace({ silent: true }))

    expect(FakeNotification.made[0]?.options).toMatchObject({ silent: true, renotify: false })
  })

  it('closes the notification main says is out of date, and only that one', async () => {
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })
    fake.emit('notifications:show', fromGrace())
    fake.emit('notifications:show', fromGrace({ key: 'conversation:g2', conversationId: 'g2', title: 'Climbing' }))

    fake.emit('notifications:close', { key: 'conversation:g1' })

    expect(FakeNotification.made.map((n) => n.closed)).toEqual([true, false])
  })

  it('brings the window forward on its conversation when clicked', async () => {
    const fake = signedIn()
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => {})
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })
    fake.emit('notifications:show', fromGrace())

    FakeNotification.made[0]?.onclick?.(new Event('click'))

    expect(focus).toHaveBeenCalled()
    expect(await screen.findByRole('heading', { name: 'Book club' })).toBeInTheDocument()
    expect(fake.callsTo('conversations:open')).toEqual([{ conversationId: 'g1' }])
    expect(FakeNotification.made[0]?.closed).toBe(true)
  })

  it('shows nothing without permission', async () => {
    FakeNotification.permission = 'denied'
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })

    fake.emit('notifications:show', fromGrace())

    expect(FakeNotification.made).toHaveLength(0)
  })

  it('asks for permission only when the user clicks, then shows notifications', async () => {
    FakeNotification.permission = 'default'
    const fake = signedIn()
    await startApp(fake)
    const button = await screen.findByRole('button', { name: 'Turn on desktop notifications' })
    expect(FakeNotification.asked).toBe(0)

    await fireEvent.click(button)

    expect(FakeNotification.asked).toBe(1)
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Turn on desktop notifications' })).toBeNull())
    fake.emit('notifications:show', fromGrace())
    expect(FakeNotification.made).toHaveLength(1)
  })

  it('stops offering once the user has refused', async () => {
    FakeNotification.permission = 'default'
    FakeNotification.answer = 'denied'
    await startApp(signedIn())

    await fireEvent.click(await screen.findByRole('button', { name: 'Turn on desktop notifications' }))

    await waitFor(() => expect(screen.queryByRole('button', { name: 'Turn on desktop notifications' })).toBeNull())
  })

  it('says in the settings where to allow notifications once the browser blocks them', async () => {
    FakeNotification.permission = 'denied'
    await startApp(signedIn())
    await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))

    const box = await screen.findByRole('checkbox', { name: 'Desktop notifications' })
    expect(box).toHaveAccessibleDescription(/blocks notifications from Parley: allow them in its site settings/)
  })

  it('does not offer permission while desktop notifications are off in the settings', async () => {
    FakeNotification.permission = 'default'
    const fake = signedIn().returns('desktop:get', desktopState({ settings: { ...desktopState().settings, desktopNotifications: false } }))
    await startApp(fake)
    await screen.findByRole('button', { name: 'Status' })

    expect(screen.queryByRole('button', { name: 'Turn on desktop notifications' })).toBeNull()
  })

  it('does not offer permission once it is granted', async () => {
    await startApp(signedIn())
    await screen.findByRole('button', { name: 'Status' })
    expect(screen.queryByRole('button', { name: 'Turn on desktop notifications' })).toBeNull()
  })

  it('offers nothing and shows nothing where the page has no Notification at all', async () => {
    vi.stubGlobal('Notification', undefined)
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('button', { name: 'Status' })

    expect(screen.queryByRole('button', { name: 'Turn on desktop notifications' })).toBeNull()
    expect(() => fake.emit('notifications:show', fromGrace())).not.toThrow()
  })
})
