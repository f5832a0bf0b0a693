import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Message, PendingMessage } from '@shared/messages'
import { AppError } from './app-error'
import { Outbox } from './outbox'
import { MemoryService } from './testing/memory-service'

const ME = { id: '1', name: 'Ada' }
const GROUP = '42'
const CHAT = '1+2'

/** Lets every promise chain the in-memory service started run to its end. */
function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

function saved(overrides: Partial<PendingMessage> & Pick<PendingMessage, 'clientId'>): PendingMessage {
  return { conversationId: GROUP, text: `text of ${overrides.clientId}`, queuedAt: 1, state: 'sending', error: null, ...overrides }
}

function outboxOn(service = new MemoryService(ME)) {
  const delivered: Message[] = []
  const recovered: PendingMessage[] = []
  const saves: PendingMessage[][] = []
  /** Deliveries and announcements together, in the order they happened. */
  const steps: string[] = []
  const outbox = new Outbox({
    deliver: (pending) => service.sendMessage(pending.conversationId, pending.text, pending.clientId),
    recoverDelivered: async (pending) => void recovered.push(pending),
    history: service,
    delivered: (message) => {
      delivered.push(message)
      steps.push(`delivered ${message.text}`)
    },
    changed: (conversationId, pending) => steps.push(`${conversationId}: [${pending.map((message) => message.text).join(', ')}]`),
    save: (all) => void saves.push(all),
    chatPartnerName: (conversationId) => (conversationId === CHAT ? 'Grace' : undefined)
  })
  return {
    service,
    outbox,
    delivered,
    recovered,
    saves,
    steps,
    lastSaved: () => saves.at(-1),
    sentTexts: (conversationId: ConversationId) => service.messagesIn(conversationId).map((message) => message.text)
  }
}

let stopOutbox: (() => void) | null = null

function started(service?: MemoryService): ReturnType<typeof outboxOn> {
  const harness = outboxOn(service)
  harness.service.addConversation(GROUP)
  harness.service.addConversation(CHAT)
  stopOutbox = () => harness.outbox.stop()
  return harness
}

beforeEach(() => {
  // The retry timer is part of the logic under test; only the clock it runs on is faked.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})

afterEach(() => {
  stopOutbox?.()
  stopOutbox = null
  vi.useRealTimers()
})

describe('Outbox', () => {
  it('delivers a message and lets go of it once the service has it', async () => {
    const { outbox, delivered, lastSaved, sentTexts } = started()

    const pending = outbox.enqueue(GROUP, 'hello', 'c1')
    expect(pending).toMatchObject({ clientId: 'c1', conversationId: GROUP, text: 'hello', state: 'sending', error: null })
    expect(outbox.pendingIn(GROUP)).toEqual([pending])
    expect(lastSaved()).toEqual([pending])

    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
    expect(delivered.map((message) => message.sourceGuid)).toEqual(['c1'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(lastSaved()).toEqual([])
  })

  it('shows the sent message before its pending copy goes, so it never blinks out of view', async () => {
    const { outbox, steps } = started()
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(steps.slice(-2)).toEqual(['delivered hello', `${GROUP}: []`])
  })

  it('sends the messages of one conversation one after another, in the order written', async () => {
    const { service, outbox, sentTexts } = started()
    const release = service.holdNext('sendMessage')

    outbox.enqueue(GROUP, 'first', 'c1')
    outbox.enqueue(GROUP, 'second', 'c2')
    outbox.enqueue(GROUP, 'third', 'c3')
    await settled()
    expect(service.callsOf('sendMessage').map(([, text]) => text)).toEqual(['first'])

    release()
    await settled()
    expect(sentTexts(GROUP)).toEqual(['first', 'second', 'third'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('sends a message written while an earlier one waits for the service only after it', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK', { times: 2 })
    outbox.enqueue(GROUP, 'first', 'c1')
    await settled()

    // Still out of reach: the earlier message is tried again first, and the new one waits behind it.
    outbox.enqueue(GROUP, 'second', 'c2')
    await settled()
    expect(service.callsOf('sendMessage').map(([, , sourceGuid]) => sourceGuid)).toEqual(['c1', 'c1'])
    const outOfReach = 'Not sent: the service is out of reach. It will be sent when it is back.'
    expect(outbox.pendingIn(GROUP)).toMatchObject([
      { clientId: 'c1', state: 'failed', error: outOfReach },
      { clientId: 'c2', state: 'failed', error: outOfReach }
    ])

    // Back: a third message takes the two before it along, in order.
    outbox.enqueue(GROUP, 'third', 'c3')
    await settled()
    expect(sentTexts(GROUP)).toEqual(['first', 'second', 'third'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('sends what waited behind an earlier message in order when the timer sends them again', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK', { times: 2 })
    outbox.enqueue(GROUP, 'first', 'c1')
    await settled()
    outbox.enqueue(GROUP, 'second', 'c2')
    await settled()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(sentTexts(GROUP)).toEqual(['first', 'second'])
  })

  it('does not hold a message back behind an earlier one the service refused', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'VALIDATION')
    outbox.enqueue(GROUP, 'refused', 'c1')
    await settled()
    outbox.enqueue(GROUP, 'next', 'c2')
    await settled()
    expect(sentTexts(GROUP)).toEqual(['next'])
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ clientId: 'c1', state: 'failed' }])
  })

  it('does not hold one conversation’s messages back behind another’s', async () => {
    const { service, outbox, sentTexts } = started()
    const release = service.holdNext('sendMessage')

    outbox.enqueue(GROUP, 'slow', 'c1')
    outbox.enqueue(CHAT, 'quick', 'c2')
    await settled()
    expect(sentTexts(CHAT)).toEqual(['quick'])
    expect(outbox.pendingIn(GROUP).map((message) => message.state)).toEqual(['sending'])

    release()
    await settled()
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('keeps a message the service could not be reached for, and sends it on resume under the same client id', async () => {
    const { service, outbox, delivered, lastSaved, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK')

    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    const [waiting] = outbox.pendingIn(GROUP)
    expect(waiting).toMatchObject({
      clientId: 'c1',
      state: 'failed',
      error: 'Not sent: the service is out of reach. It will be sent when it is back.'
    })
    expect(lastSaved()).toEqual([waiting])
    expect(delivered).toEqual([])

    outbox.resume()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'sending', error: null }])
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
    expect(service.callsOf('sendMessage').map(([, , sourceGuid]) => sourceGuid)).toEqual(['c1', 'c1'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('tries again by itself after 2 s, waiting twice as long after each failure up to a minute', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK', { times: 7 })
    const attempts = (): number => service.callsOf('sendMessage').length

    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(attempts()).toBe(1)

    await vi.advanceTimersByTimeAsync(1_999)
    expect(attempts()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(attempts()).toBe(2)
    for (const [wait, expected] of [
      [4_000, 3],
      [8_000, 4],
      [16_000, 5],
      [32_000, 6]
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1)
      expect(attempts()).toBe(expected - 1)
      await vi.advanceTimersByTimeAsync(1)
      expect(attempts()).toBe(expected)
    }
    // Capped: a minute, and a minute again.
    await vi.advanceTimersByTimeAsync(59_999)
    expect(attempts()).toBe(6)
    await vi.advanceTimersByTimeAsync(1)
    expect(attempts()).toBe(7)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(attempts()).toBe(8)

    expect(sentTexts(GROUP)).toEqual(['hello'])
    expect(new Set(service.callsOf('sendMessage').map(([, , sourceGuid]) => sourceGuid))).toEqual(new Set(['c1']))
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('starts again from 2 s once a message has gone through', async () => {
    const { service, outbox } = started()
    service.failNext('sendMessage', 'NETWORK', { times: 2 })
    outbox.enqueue(GROUP, 'first', 'c1')
    await settled()
    await vi.advanceTimersByTimeAsync(2_000 + 4_000)
    expect(outbox.pendingIn(GROUP)).toEqual([])

    service.failNext('sendMessage', 'NETWORK')
    outbox.enqueue(GROUP, 'second', 'c2')
    await settled()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('finds a message whose answer was lost in the history before sending it again, and shows it as stored', async () => {
    const { service, outbox, delivered, recovered, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK', { afterEffect: true })
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed' }])

    outbox.resume()
    await settled()
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(service.callsOf('sendMessage')).toHaveLength(1)
    expect(delivered).toEqual(service.messagesIn(GROUP))
    expect(recovered).toEqual([])
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('posts a message once when its answer was lost and the service’s 60 s of refusing its client id are over', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK', { afterEffect: true })
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()

    // The service would take the same client id again now: only the history can tell.
    service.now += 61
    outbox.resume()
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('lets go of a message whose answer was lost as soon as the service sends it back, and not before', async () => {
    const { service, outbox, steps } = started()
    service.failNext('sendMessage', 'NETWORK', { afterEffect: true })
    outbox.enqueue(GROUP, 'hello', 'c1')
    outbox.enqueue(GROUP, 'other', 'c2')
    await settled()
    const [stored] = service.messagesIn(GROUP)
    if (stored === undefined) throw new Error('the service stored the first message')
    outbox.arrived(service.write(GROUP, { senderId: ME.id, text: 'hello', sourceGuid: 'elsewhere' }))
    outbox.arrived({ ...stored, conversationId: CHAT })
    expect(outbox.pendingIn(GROUP).map((message) => message.clientId)).toEqual(['c1', 'c2'])

    steps.length = 0
    outbox.arrived(stored)
    expect(outbox.pendingIn(GROUP).map((message) => message.clientId)).toEqual(['c2'])
    expect(steps).toEqual([`${GROUP}: [other]`])
    outbox.resume()
    await settled()
    expect(service.callsOf('sendMessage').map(([, , sourceGuid]) => sourceGuid)).toEqual(['c1', 'c2'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('does not bring back a message the service sent back while an attempt at it was under way', async () => {
    const { service, outbox } = started()
    const release = service.holdNext('sendMessage')
    service.failNext('sendMessage', 'NETWORK', { afterEffect: true })
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    const [stored] = service.messagesIn(GROUP)
    if (stored === undefined) throw new Error('the service stored the message')

    outbox.arrived(stored)
    release()
    await settled()
    expect(outbox.pendingIn(GROUP)).toEqual([])
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(1)
  })

  it('takes a 409 for a send whose answer was lost when the history cannot be read: the message is dropped, fetched instead, and posted once', async () => {
    const { service, outbox, delivered, recovered, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK', { afterEffect: true })

    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed' }])

    service.failNext('latestMessages', 'INTERNAL')
    outbox.resume()
    await settled()
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(recovered).toMatchObject([{ clientId: 'c1', text: 'hello' }])
    expect(delivered).toEqual([])
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('lets go of a message the service already has even when fetching it fails', async () => {
    const outbox = new Outbox({
      deliver: () => Promise.reject(new AppError('CONFLICT', 'That was already done.')),
      recoverDelivered: () => Promise.reject(new AppError('NETWORK', 'Cannot reach the service.')),
      history: new MemoryService(ME),
      delivered: () => undefined,
      changed: () => undefined,
      save: () => undefined
    })
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('keeps a message the service refused, with the reason, until the user retries it', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'VALIDATION')

    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed', error: 'Not sent: the service refused this message.' }])

    // Neither a reconnect nor the timer sends it again: only the user can.
    outbox.resume()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(1)

    expect(outbox.retry(GROUP, 'c1')).toMatchObject({ state: 'sending', error: null })
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('keeps a message for a conversation the user may not post in, until the user discards it', async () => {
    const { service, outbox, lastSaved } = started()
    service.failNext('sendMessage', 'FORBIDDEN')

    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed', error: 'Not sent: only admins can write in this group now.' }])
    outbox.resume()
    await settled()
    expect(service.callsOf('sendMessage')).toHaveLength(1)

    outbox.discard(GROUP, 'c1')
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(lastSaved()).toEqual([])
  })

  it('says a chat refused a message because the other person blocks the user, and keeps it until the user discards it', async () => {
    const { service, outbox } = started()
    service.failNext('sendMessage', 'FORBIDDEN')

    outbox.enqueue(CHAT, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(CHAT)).toMatchObject([
      { state: 'failed', text: 'hello', error: 'Not sent: Grace is not accepting messages from you.' }
    ])
    outbox.resume()
    await settled()
    expect(service.callsOf('sendMessage')).toHaveLength(1)
  })

  it('holds a message written after the session ended until the user is back, without a timer', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'UNAUTHENTICATED')

    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([
      { state: 'failed', error: 'Not sent: your session ended. It will be sent when you sign in again.' }
    ])
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(1)

    outbox.resume()
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('words any other failure in the user’s terms and leaves the message to the user', async () => {
    const { service, outbox } = started()
    service.failNext('sendMessage', 'NOT_FOUND')
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed', error: 'Not sent: That conversation or message no longer exists.' }])
    outbox.resume()
    await settled()
    expect(service.callsOf('sendMessage')).toHaveLength(1)
  })

  it('does not send the same message twice when it is submitted twice', async () => {
    const { outbox, sentTexts } = started()
    const first = outbox.enqueue(GROUP, 'hello', 'c1')
    expect(outbox.enqueue(GROUP, 'hello', 'c1')).toEqual(first)
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('refuses an empty message and keeps nothing', () => {
    const { outbox, saves } = started()
    expect(() => outbox.enqueue(GROUP, '  \n ', 'c1')).toThrow(expect.objectContaining({ code: 'VALIDATION', message: 'Write something before sending.' }))
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(saves).toEqual([])
  })

  it('refuses to discard a message while it is being sent', async () => {
    const { service, outbox } = started()
    const release = service.holdNext('sendMessage')
    outbox.enqueue(GROUP, 'hello', 'c1')
    expect(() => outbox.discard(GROUP, 'c1')).toThrow(expect.objectContaining({ code: 'CONFLICT' }))
    release()
    await settled()
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('says a message is no longer waiting when asked to retry or discard one it does not hold', async () => {
    const { service, outbox } = started()
    service.failNext('sendMessage', 'VALIDATION')
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()
    const gone = expect.objectContaining({ code: 'NOT_FOUND', message: 'That message is no longer waiting to be sent.' })
    expect(() => outbox.retry(GROUP, 'unknown')).toThrow(gone)
    expect(() => outbox.discard(GROUP, 'unknown')).toThrow(gone)
    // A client id is only found in the conversation it was written in.
    expect(() => outbox.retry(CHAT, 'c1')).toThrow(gone)
    expect(() => outbox.discard(CHAT, 'c1')).toThrow(gone)
  })

  it('leaves a message that is already on its way alone when asked to retry it', async () => {
    const { service, outbox, sentTexts } = started()
    const release = service.holdNext('sendMessage')
    outbox.enqueue(GROUP, 'hello', 'c1')
    expect(outbox.retry(GROUP, 'c1')).toMatchObject({ state: 'sending' })
    release()
    await settled()
    expect(service.callsOf('sendMessage')).toHaveLength(1)
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('brings back what was unsent at the last stop, and sends it oldest first once the service answers', async () => {
    const { service, outbox, steps, sentTexts } = started()
    outbox.restore([
      saved({ clientId: 'c2', text: 'second', queuedAt: 2 }),
      saved({ clientId: 'c3', conversationId: CHAT, text: 'other', queuedAt: 3 }),
      saved({ clientId: 'c1', text: 'first', queuedAt: 1, state: 'failed', error: 'old reason' })
    ])
    const notYet = 'Not sent yet. It will be sent when the service is reachable.'
    expect(outbox.pendingIn(GROUP)).toMatchObject([
      { clientId: 'c1', state: 'failed', error: notYet },
      { clientId: 'c2', state: 'failed', error: notYet }
    ])
    expect(outbox.pendingIn(CHAT)).toMatchObject([{ clientId: 'c3', state: 'failed', error: notYet }])
    expect(steps).toEqual([`${GROUP}: [first, second]`, `${CHAT}: [other]`])
    await settled()
    expect(service.calls).toEqual([])

    outbox.resume()
    await settled()
    expect(sentTexts(GROUP)).toEqual(['first', 'second'])
    expect(sentTexts(CHAT)).toEqual(['other'])
  })

  it('does not send again a restored message the service already stored, reading back page by page as far as it was written', async () => {
    const { service, outbox, delivered, sentTexts } = started()
    const writtenAt = service.now * 1000
    service.write(GROUP, { senderId: ME.id, text: 'arrived', sourceGuid: 'c1' })
    service.writeMany(GROUP, 150, '2')
    outbox.restore([saved({ clientId: 'c1', text: 'arrived', queuedAt: writtenAt })])

    outbox.resume()
    await settled()
    expect(service.callsOf('messagesBefore')).toHaveLength(1)
    expect(service.callsOf('sendMessage')).toEqual([])
    expect(delivered.map((message) => message.sourceGuid)).toEqual(['c1'])
    expect(sentTexts(GROUP).filter((text) => text === 'arrived')).toHaveLength(1)
    expect(outbox.pendingIn(GROUP)).toEqual([])
  })

  it('reads the history no further back than a quarter of an hour before the message was written', async () => {
    const { service, outbox, sentTexts } = started()
    service.writeMany(GROUP, 150, '2')
    const writtenAt = (service.now + 15 * 60 + 1) * 1000
    outbox.restore([saved({ clientId: 'c1', text: 'never arrived', queuedAt: writtenAt })])

    outbox.resume()
    await settled()
    expect(service.callsOf('latestMessages')).toHaveLength(1)
    expect(service.callsOf('messagesBefore')).toEqual([])
    expect(sentTexts(GROUP).at(-1)).toBe('never arrived')
  })

  it('counts a history it could not reach as a failed attempt, and looks again next time', async () => {
    const { service, outbox, sentTexts } = started()
    outbox.restore([saved({ clientId: 'c1', text: 'hello' })])
    service.failNext('latestMessages', 'NETWORK')

    outbox.resume()
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed', error: 'Not sent: the service is out of reach. It will be sent when it is back.' }])
    expect(service.callsOf('sendMessage')).toEqual([])

    outbox.resume()
    await settled()
    expect(service.callsOf('latestMessages')).toHaveLength(2)
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('saves what is still waiting after every change', async () => {
    const { service, outbox, lastSaved } = started()
    service.failNext('sendMessage', 'VALIDATION')
    outbox.enqueue(GROUP, 'refused', 'c1')
    outbox.enqueue(CHAT, 'accepted', 'c2')
    expect(lastSaved()?.map((message) => message.clientId)).toEqual(['c1', 'c2'])
    await settled()
    expect(lastSaved()).toEqual(outbox.pendingIn(GROUP))
    expect(lastSaved()).toMatchObject([{ clientId: 'c1', state: 'failed' }])
  })

  it('forgets every message on clear, saying so for each conversation, and stops retrying', async () => {
    const { service, outbox, steps, lastSaved } = started()
    service.failNext('sendMessage', 'NETWORK', { times: 2 })
    outbox.enqueue(GROUP, 'one', 'c1')
    outbox.enqueue(CHAT, 'two', 'c2')
    await settled()
    steps.length = 0

    outbox.clear()
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(outbox.pendingIn(CHAT)).toEqual([])
    expect(steps).toEqual([`${GROUP}: []`, `${CHAT}: []`])
    expect(lastSaved()).toEqual([])
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(2)
  })

  it('shows a new message as waiting, and sends it, only once it is kept', async () => {
    const service = new MemoryService(ME)
    service.addConversation(GROUP)
    const changes: PendingMessage[][] = []
    let keep: () => void = () => undefined
    const outbox = new Outbox({
      deliver: (pending) => service.sendMessage(pending.conversationId, pending.text, pending.clientId),
      recoverDelivered: async () => undefined,
      history: service,
      delivered: () => undefined,
      changed: (_conversationId, pending) => void changes.push(pending),
      save: () => new Promise<void>((resolve) => (keep = resolve))
    })
    stopOutbox = () => outbox.stop()
    let kept = false
    outbox.enqueue(GROUP, 'hello', 'c1')
    void outbox.saved().then(() => (kept = true))
    await settled()
    expect(changes).toEqual([])
    expect(service.callsOf('sendMessage')).toEqual([])
    expect(kept).toBe(false)

    keep()
    await settled()
    expect(kept).toBe(true)
    expect(changes[0]).toMatchObject([{ clientId: 'c1', state: 'sending' }])
    expect(service.callsOf('sendMessage')).toHaveLength(1)
  })

  it('lets go of every message on release without saving, so the account’s kept outbox stays as it was', async () => {
    const { service, outbox, steps, saves } = started()
    service.failNext('sendMessage', 'NETWORK', { times: 2 })
    outbox.enqueue(GROUP, 'one', 'c1')
    await settled()
    steps.length = 0
    const savedBefore = saves.length

    outbox.release()
    expect(outbox.pendingIn(GROUP)).toEqual([])
    expect(steps).toEqual([`${GROUP}: []`])
    expect(saves).toHaveLength(savedBefore)
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(1)
  })

  it('restores what was kept beside what was written meanwhile, keeping a message it holds as it is', async () => {
    const { service, outbox, sentTexts } = started()
    const release = service.holdNext('sendMessage')
    outbox.enqueue(GROUP, 'written while it opened', 'c2')
    await settled()
    outbox.restore([saved({ clientId: 'c1', text: 'kept', queuedAt: 1 }), saved({ clientId: 'c2', text: 'written while it opened', queuedAt: 2 })])
    expect(outbox.pendingIn(GROUP)).toMatchObject([
      { clientId: 'c1', state: 'failed' },
      { clientId: 'c2', state: 'sending' }
    ])
    release()
    outbox.resume()
    await settled()
    expect(sentTexts(GROUP).toSorted()).toEqual(['kept', 'written while it opened'])
  })

  it('stops the timed retry on stop, but keeps the message for the next resume', async () => {
    const { service, outbox, sentTexts } = started()
    service.failNext('sendMessage', 'NETWORK')
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()

    outbox.stop()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(1)
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed' }])

    outbox.resume()
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })

  it('does not set the timed retry again when an attempt under way at the stop fails after it', async () => {
    const { service, outbox, sentTexts } = started()
    const release = service.holdNext('sendMessage')
    service.failNext('sendMessage', 'NETWORK', { afterEffect: true })
    outbox.enqueue(GROUP, 'hello', 'c1')
    await settled()

    outbox.stop()
    release()
    await settled()
    expect(outbox.pendingIn(GROUP)).toMatchObject([{ state: 'failed' }])
    await vi.advanceTimersByTimeAsync(120_000)
    expect(service.callsOf('sendMessage')).toHaveLength(1)

    outbox.resume()
    await settled()
    expect(sentTexts(GROUP)).toEqual(['hello'])
  })
})
