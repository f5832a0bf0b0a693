import { screen, waitFor } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { desktopState, FakeApi, me } from '../testing/fake-api'
import { startApp } from '../testing/start-app'
import { badgeText, FaviconBadge, pageTitle } from './page-badge'

const PLAIN_ICON = 'data:image/svg+xml,plain'

/** A 2D context that keeps what was written on it. */
function recordingCanvas(): { texts: string[]; drawnImages: number } {
  const record = { texts: [] as string[], drawnImages: 0 }
  const context = {
    drawImage: () => record.drawnImages++,
    beginPath: () => {},
    arc: () => {},
    fill: () => {},
    fillText: (text: string) => record.texts.push(text)
  }
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as unknown as CanvasRenderingContext2D)
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(() => `data:image/png;base64,badge-${record.texts.at(-1)}`)
  return record
}

function icon(): HTMLLinkElement {
  const link = document.head.querySelector<HTMLLinkElement>('link[rel="icon"]')
  if (!link) throw new Error('no icon')
  return link
}

beforeEach(() => {
  const link = document.createElement('link')
  link.rel = 'icon'
  link.href = PLAIN_ICON
  document.head.append(link)
  // jsdom loads no images; the page's icon is a data URL, which a browser decodes at once.
  HTMLImageElement.prototype.decode = () => Promise.resolve()
  // jsdom has no canvas either: tests that draw record one, the others draw nothing.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => null)
})

afterEach(() => {
  icon().remove()
  vi.restoreAllMocks()
  document.title = ''
})

describe('page title', () => {
  it('carries the count, and nothing at 0', () => {
    expect(pageTitle(0)).toBe('Parley')
    expect(pageTitle(3)).toBe('(3) Parley')
    expect(pageTitle(120)).toBe('(120) Parley')
  })

  it('follows the badge count main reports, which leaves muted conversations out', async () => {
    const fake = new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('desktop:get', desktopState({ unreadCount: 3 }))
    await startApp(fake)
    await waitFor(() => expect(document.title).toBe('(3) Parley'))

    fake.emit('desktop:changed', desktopState({ unreadCount: 4 }))
    await waitFor(() => expect(document.title).toBe('(4) Parley'))

    fake.emit('desktop:changed', desktopState({ unreadCount: 0 }))
    await waitFor(() => expect(document.title).toBe('Parley'))
  })

  it('reads plain Parley on the sign-in screen', async () => {
    await startApp(new FakeApi())
    await screen.findByRole('button', { name: 'Sign in' })
    expect(document.title).toBe('Parley')
  })
})

describe('favicon badge', () => {
  it('writes the count over the icon, and puts the plain icon back at 0', async () => {
    const canvas = recordingCanvas()
    const badge = new FaviconBadge(document)

    await badge.show(3)
    expect(canvas.drawnImages).toBe(1)
    expect(canvas.texts).toEqual(['3'])
    expect(icon().getAttribute('href')).toBe('data:image/png;base64,badge-3')

    await badge.show(0)
    expect(icon().getAttribute('href')).toBe(PLAIN_ICON)
  })

  it('caps what it writes at 99+', () => {
    expect(badgeText(7)).toBe('7')
    expect(badgeText(99)).toBe('99')
    expect(badgeText(100)).toBe('99+')
  })

  it('lets the latest count win when drawings overlap', async () => {
    recordingCanvas()
    const badge = new FaviconBadge(document)

    await Promise.all([badge.show(2), badge.show(5)])

    expect(icon().getAttribute('href')).toBe('data:image/png;base64,badge-5')
  })

  it('keeps the plain icon where there is no canvas to draw on', async () => {
    await new FaviconBadge(document).show(3)
    expect(icon().getAttribute('href')).toBe(PLAIN_ICON)
  })

  it('follows the badge count main reports', async () => {
    const canvas = recordingCanvas()
    const fake = new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('desktop:get', desktopState({ unreadCount: 12 }))
    await startApp(fake)

    await waitFor(() => expect(icon().getAttribute('href')).toBe('data:image/png;base64,badge-12'))
    expect(canvas.texts).toContain('12')
  })
})
