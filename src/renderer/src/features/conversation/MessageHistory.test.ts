import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { Message } from '@shared/messages'
import { LATEST_ROWS, MAX_ROWS, STEP_ROWS } from '$lib/history-window'
import { me, message } from '../../testing/fake-api'
import { layOutHistory, VIEWPORT_HEIGHT } from '../../testing/history-layout'
import MessageHistory from './MessageHistory.svelte'

type Props = Parameters<typeof render<typeof MessageHistory>>[1]

function history(count: number, firstAt = 1_700_000_000): Message[] {
  return Array.from({ length: count }, (_, index) =>
    message({ conversationId: 'g1', text: `Message ${index}`, createdAt: firstAt + index * 60 })
  )
}

function props(messages: Message[], overrides: Record<string, unknown> = {}): Props {
  return {
    messages,
    pending: [],
    me,
    hasOlder: false,
    loadingOlder: false,
    olderError: null,
    onLoadOlder: async () => {},
    onRetry: () => {},
    onDiscard: () => {},
    onOpenLink: () => {},
    ...overrides
  } as Props
}

/**
 * Thirty messages drawn, and a page of fifty older ones above them that the history's one load
 * brings in, the last there is; `loads` counts the loads asked for.
 */
async function withAnOlderPage(): Promise<{ older: Message[]; newer: Message[]; loads: () => number }> {
  const older = history(50, 1_600_000_000)
  const newer = history(30)
  const view = render(MessageHistory, props(newer, { hasOlder: true }))
  let loads = 0
  await view.rerender({
    onLoadOlder: async () => {
      loads += 1
      await view.rerender({ messages: [...older, ...newer], hasOlder: false })
    }
  })
  return { older, newer, loads: () => loads }
}

const viewport = (): HTMLElement => screen.getByRole('region', { name: 'Message history' })
const rows = (): HTMLElement[] => within(screen.getByRole('list', { name: 'Messages' })).queryAllByRole('listitem')
const drawnIds = (): string[] => rows().map((row) => row.dataset['messageId'] ?? '')
const rowOf = (id: string): HTMLElement | undefined => rows().find((row) => row.dataset['messageId'] === id)

function inView(row: HTMLElement | undefined): boolean {
  const top = row?.getBoundingClientRect().top
  return top !== undefined && top >= 0 && top < VIEWPORT_HEIGHT
}

/** Scrolls to the very top, as a user dragging the scrollbar up, and waits for the rows above to be drawn. */
async function scrollToTop(): Promise<void> {
  const before = drawnIds()[0]
  viewport().scrollTop = 0
  await fireEvent.scroll(viewport())
  await waitFor(() => expect(drawnIds()[0]).not.toBe(before))
}

// Thousands of rows through jsdom: seconds of work on a busy machine, more than the default 5 s allows.
describe('a long history', { timeout: 20_000 }, () => {
  let removeLayout: () => void = () => {}
  beforeEach(() => {
    removeLayout = layOutHistory()
  })
  afterEach(() => removeLayout())

  it(`draws only the newest ${LATEST_ROWS} rows of ten thousand messages, scrolled to the newest`, async () => {
    const messages = history(10_000)
    render(MessageHistory, props(messages))

    await waitFor(() => expect(inView(rowOf(messages.at(-1)?.id ?? ''))).toBe(true))
    expect(rows()).toHaveLength(LATEST_ROWS)
    expect(drawnIds().at(-1)).toBe(messages.at(-1)?.id)
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
  })

  it(`keeps at most ${MAX_ROWS} rows drawn while scrolling to the top, and every message is drawn on the way`, async () => {
    const messages = history(400)
    render(MessageHistory, props(messages))
    const seen = new Set(drawnIds())
    let peak = rows().length

    while (screen.queryByText('This is the beginning of the conversation.') === null) {
      await scrollToTop()
      drawnIds().forEach((id) => seen.add(id))
      peak = Math.max(peak, rows().length)
    }

    expect(peak).toBeLessThanOrEqual(MAX_ROWS)
    expect(seen.size).toBe(messages.length)
    expect(drawnIds()[0]).toBe(messages[0]?.id)
    expect(drawnIds()).not.toContain(messages.at(-1)?.id)
    // jsdom draws slowly on a busy machine: many steps of rows take their time.
  }, 30_000)

  it('keeps the row the user was reading in place when rows are drawn above it', async () => {
    const messages = history(1_000)
    render(MessageHistory, props(messages))
    viewport().scrollTop = 0
    const reading = drawnIds()[0] ?? ''

    await fireEvent.scroll(viewport())
    await waitFor(() => expect(drawnIds()[0]).not.toBe(reading))

    expect(rowOf(reading)?.getBoundingClientRect().top).toBe(0)
  })

  it('keeps the row the user was reading in place when an older page loads above it', async () => {
    const { older, newer, loads } = await withAnOlderPage()
    // The rows above the newest LATEST_ROWS come in the frames after opening.
    await waitFor(() => expect(rows()).toHaveLength(newer.length))
    viewport().scrollTop = 0
    const reading = newer[0]?.id ?? ''
    expect(rowOf(reading)?.getBoundingClientRect().top).toBe(0)

    await fireEvent.scroll(viewport())

    await waitFor(() => expect(drawnIds()[0]).toBe(older[older.length - STEP_ROWS]?.id))
    expect(loads()).toBe(1)
    expect(rowOf(reading)?.getBoundingClientRect().top).toBe(0)
  })

  it('takes an older page in without drawing its rows, leaves the frame after to it, and draws them in the next', async () => {
    // Frames run when the test says: what is drawn between two of them is what one task did.
    const frames: FrameRequestCallback[] = []
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback))
    onTestFinished(() => void vi.restoreAllMocks())
    const nextFrame = async (): Promise<void> => {
      for (const callback of frames.splice(0)) callback(performance.now())
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const { older, newer, loads } = await withAnOlderPage()
    // The rows above the newest LATEST_ROWS come a batch a frame.
    for (let frame = 0; frame < 10 && rows().length < newer.length; frame++) await nextFrame()
    viewport().scrollTop = 0
    await fireEvent.scroll(viewport())

    // The frame that finds the top asks for the page; the page comes in and is not drawn yet.
    await nextFrame()
    expect(loads()).toBe(1)
    expect(drawnIds()[0]).toBe(newer[0]?.id)

    // The frame after that draws none either: putting the page in was work enough for it.
    await nextFrame()
    expect(drawnIds()[0]).toBe(newer[0]?.id)

    await nextFrame()
    expect(drawnIds()[0]).toBe(older[older.length - STEP_ROWS]?.id)
  })

  it('does not ask again for an older page that failed, until asked by the button', async () => {
    const view = render(MessageHistory, props(history(30), { hasOlder: true, olderError: 'The service is unreachable.' }))
    let loads = 0
    await view.rerender({ onLoadOlder: async () => void (loads += 1) })

    viewport().scrollTop = 0
    await fireEvent.scroll(viewport())
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(loads).toBe(0)
    expect(screen.getByRole('alert')).toHaveTextContent('The service is unreachable.')

    await fireEvent.click(screen.getByRole('button', { name: 'Load older messages' }))
    expect(loads).toBe(1)
  })

  it('shows a New messages divider at the first unread message, and opens with it in view', async () => {
    const messages = history(1_000)
    const firstUnread = messages[700]
    render(MessageHistory, props(messages, { firstUnreadId: firstUnread?.id }))

    await waitFor(() => expect(inView(rowOf(firstUnread?.id ?? ''))).toBe(true))
    const divider = screen.getByRole('separator', { name: 'New messages' })
    expect(rowOf(firstUnread?.id ?? '')).toContainElement(divider)
    expect(rows().length).toBeLessThanOrEqual(MAX_ROWS)
  })

  it('offers Jump to first unread while the divider is above the view, which brings it back', async () => {
    const messages = history(1_000)
    const firstUnread = messages[700]?.id ?? ''
    render(MessageHistory, props(messages, { firstUnreadId: firstUnread }))
    await waitFor(() => expect(inView(rowOf(firstUnread))).toBe(true))
    expect(screen.queryByRole('button', { name: 'Jump to first unread' })).toBeNull()

    viewport().scrollTop = viewport().scrollTop + 3_000
    await fireEvent.scroll(viewport())
    await fireEvent.click(await screen.findByRole('button', { name: 'Jump to first unread' }))

    await waitFor(() => expect(inView(rowOf(firstUnread))).toBe(true))
    expect(rowOf(firstUnread)).toHaveFocus()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Jump to first unread' })).toBeNull())
  })

  it('offers Jump to first unread when that message is not loaded, and asks for it to be', async () => {
    const reached: string[] = []
    render(MessageHistory, props(history(50), { hasOlder: true, firstUnreadId: 'older-than-loaded', onReach: (id: string) => reached.push(id) }))
    await fireEvent.click(await screen.findByRole('button', { name: 'Jump to first unread' }))
    expect(reached).toEqual(['older-than-loaded'])
  })

  it('tells each row where it stands in the whole conversation, of which only the newest are loaded', async () => {
    const messages = history(300)
    render(MessageHistory, props(messages, { hasOlder: true, messageCount: 5_000 }))
    await waitFor(() => expect(rows().length).toBeGreaterThan(0))
    const drawn = rows()
    expect(drawn.every((row) => row.getAttribute('aria-setsize') === '5000')).toBe(true)
    expect(drawn.at(-1)?.getAttribute('aria-posinset')).toBe('5000')
    const firstDrawn = drawn[0]
    const index = messages.findIndex((each) => each.id === firstDrawn?.dataset['messageId'])
    expect(firstDrawn?.getAttribute('aria-posinset')).toBe(String(5_000 - (299 - index)))
  })

  it('counts the loaded messages when they are the whole conversation, and says the size is unknown when nobody knows it', async () => {
    const whole = render(MessageHistory, props(history(30), { hasOlder: false, messageCount: null }))
    await waitFor(() => expect(rows()[0]?.getAttribute('aria-posinset')).toBe('1'))
    expect(rows().at(-1)?.getAttribute('aria-posinset')).toBe('30')
    expect(rows()[0]?.getAttribute('aria-setsize')).toBe('30')
    whole.unmount()

    render(MessageHistory, props(history(30), { hasOlder: true, messageCount: null }))
    await waitFor(() => expect(rows()[0]?.getAttribute('aria-setsize')).toBe('-1'))
    expect(rows()[0]?.hasAttribute('aria-posinset')).toBe(false)
  })

  it('shows no divider when nothing was unread', () => {
    render(MessageHistory, props(history(20), { firstUnreadId: null }))
    expect(screen.queryByRole('separator', { name: 'New messages' })).toBeNull()
  })

  it('offers Jump to latest when scrolled up, which draws and shows the newest message again', async () => {
    const messages = history(2_000)
    render(MessageHistory, props(messages))
    const newest = messages.at(-1)?.id ?? ''

    while (rowOf(newest) !== undefined) await scrollToTop()
    await fireEvent.click(await screen.findByRole('button', { name: /Jump to latest/ }))

    await waitFor(() => expect(inView(rowOf(newest))).toBe(true))
    expect(viewport().scrollTop).toBe(viewport().scrollHeight - VIEWPORT_HEIGHT)
    expect(viewport()).toHaveFocus()
    await waitFor(() => expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull())
  })

  it('offers Jump to latest when scrolled up a little within the newest rows', async () => {
    render(MessageHistory, props(history(200)))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()

    viewport().scrollTop = viewport().scrollTop - 1_000
    await fireEvent.scroll(viewport())

    expect(await screen.findByRole('button', { name: /Jump to latest/ })).toBeInTheDocument()
  })

  it('follows an arrival when at the newest message, and leaves the row being read in place when scrolled up', async () => {
    const messages = history(300)
    const view = render(MessageHistory, props(messages))
    const first = message({ conversationId: 'g1', text: 'Arrived at the bottom', createdAt: 1_800_000_000 })

    await view.rerender({ messages: [...messages, first] })
    await waitFor(() => expect(inView(rowOf(first.id))).toBe(true))
    expect(rows().length).toBeLessThanOrEqual(MAX_ROWS)

    viewport().scrollTop = viewport().scrollTop - 600
    await fireEvent.scroll(viewport())
    const reading = drawnIds().find((id) => inView(rowOf(id))) ?? ''
    const readingTop = rowOf(reading)?.getBoundingClientRect().top
    const second = message({ conversationId: 'g1', text: 'Arrived while reading', createdAt: 1_800_000_060 })
    await view.rerender({ messages: [...messages, first, second] })

    await waitFor(() => expect(rowOf(second.id)).toBeDefined())
    expect(rowOf(reading)?.getBoundingClientRect().top).toBe(readingTop)
    expect(inView(rowOf(second.id))).toBe(false)
    expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeInTheDocument()
    // Said once the few seconds after the first arrival's announcement are up, not on top of it.
    const live = document.querySelector('[aria-live="polite"]')
    expect(live?.textContent).toBe('Grace Hopper: Arrived at the bottom')
    await waitFor(() => expect(live?.textContent).toBe('Grace Hopper: Arrived while reading'), { timeout: 4_000 })
  }, 10_000)

  it('keeps the row being read drawn when a message arrives before the rows above it are drawn', async () => {
    // Frames run when the test says: the arrival comes between the scroll and the next frame.
    const frames: FrameRequestCallback[] = []
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback))
    onTestFinished(() => void vi.restoreAllMocks())
    const messages = history(300)
    const view = render(MessageHistory, props(messages))
    await waitFor(() => expect(rows()).toHaveLength(LATEST_ROWS))

    viewport().scrollTop = 0
    await fireEvent.scroll(viewport())
    const reading = drawnIds()[0] ?? ''
    const arrival = message({ conversationId: 'g1', text: 'Arrived while reading the top', createdAt: 1_800_000_000 })
    await view.rerender({ messages: [...messages, arrival] })

    await waitFor(() => expect(rowOf(arrival.id)).toBeDefined())
    expect(drawnIds()[0]).toBe(reading)
    expect(rowOf(reading)?.getBoundingClientRect().top).toBe(0)
  })

  it('counts what others write while the newest are out of view, and forgets the count once they are reached', async () => {
    const messages = history(40)
    const view = render(MessageHistory, props(messages))
    await waitFor(() => expect(inView(rowOf(messages.at(-1)?.id ?? ''))).toBe(true))
    // Two rows up: the newest is out of view, though not far.
    viewport().scrollTop = viewport().scrollTop - 120
    await fireEvent.scroll(viewport())
    expect(await screen.findByRole('button', { name: 'Jump to latest' })).toBeInTheDocument()

    const arrivals = [0, 1].map((index) => message({ conversationId: 'g1', text: `While reading ${index}`, senderId: 'u3', senderName: 'Alan Turing', createdAt: 1_800_000_000 + index }))
    await view.rerender({ messages: [...messages, arrivals[0] as Message] })
    expect(await screen.findByRole('button', { name: 'Jump to latest, 1 new message' })).toBeInTheDocument()
    await view.rerender({ messages: [...messages, ...arrivals] })
    expect(await screen.findByRole('button', { name: 'Jump to latest, 2 new messages' })).toBeInTheDocument()
    expect(inView(rowOf(arrivals[1]?.id ?? ''))).toBe(false)

    viewport().scrollTop = viewport().scrollHeight
    await fireEvent.scroll(viewport())
    await waitFor(() => expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull())
    viewport().scrollTop = viewport().scrollTop - 120
    await fireEvent.scroll(viewport())
    expect(await screen.findByRole('button', { name: 'Jump to latest' })).toBeInTheDocument()
  })

  it('still follows an arrival when the browser scrolls by itself before the history settles, keeping the position in range', async () => {
    // A few rows more than fill the view, so the arrival lands just below it until the history follows it.
    const messages = history(12)
    const view = render(MessageHistory, props(messages))
    await waitFor(() => expect(inView(rowOf(messages.at(-1)?.id ?? ''))).toBe(true))
    const arrived = message({ conversationId: 'g1', text: 'Arrived at the bottom', createdAt: 1_800_000_000 })

    await view.rerender({ messages: [...messages, arrived] })
    // Still at the bottom, within a row of it: what a browser sends when it clamps the position.
    await fireEvent.scroll(viewport())

    await waitFor(() => expect(inView(rowOf(arrived.id))).toBe(true))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
  })

  it('still follows arrivals that come faster than frames, whatever scroll event the last following left behind', async () => {
    const messages = history(12)
    const view = render(MessageHistory, props(messages))
    await waitFor(() => expect(inView(rowOf(messages.at(-1)?.id ?? ''))).toBe(true))
    const burst = [0, 1, 2].map((index) => message({ conversationId: 'g1', text: `Burst ${index}`, createdAt: 1_800_000_000 + index }))

    await view.rerender({ messages: [...messages, ...burst.slice(0, 2)] })
    await view.rerender({ messages: [...messages, ...burst] })
    // The position has not moved: this is the event of the history's own last scroll, not the user's.
    await fireEvent.scroll(viewport())

    await waitFor(() => expect(inView(rowOf(burst[2]?.id ?? ''))).toBe(true))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
  })

  it('brings a requested message into view and focuses it, however far up it is', async () => {
    const messages = history(5_000)
    const view = render(MessageHistory, props(messages))
    const target = messages[1_234]?.id ?? ''

    await view.rerender({ focusRequest: { messageId: target } })

    await waitFor(() => expect(rowOf(target)).toHaveFocus())
    expect(inView(rowOf(target))).toBe(true)
    expect(rows().length).toBeLessThanOrEqual(MAX_ROWS)
  })
})
