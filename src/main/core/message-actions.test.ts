import { describe, expect, it } from 'vitest'
import type { Conversation } from '@shared/conversations'
import type { LikePeriod, Message, Reaction } from '@shared/messages'
import type { ErrorCode } from '@shared/window-api'
import { AppError } from './app-error'
import { userMessageFor } from './failures'
import { MessageActions } from './message-actions'
import type { MessageChange } from './message-flow'
import type { MessageActionService } from './ports'

function message(id: string, text = 'hello'): Message {
  return {
    id,
    conversationId: 'g1',
    sourceGuid: `s-${id}`,
    senderId: 'me',
    senderName: 'Me',
    senderAvatarUrl: null,
    text,
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

function conversation(id: string, kind: Conversation['kind']): Conversation {
  return { id, kind, name: id, avatarUrl: null, lastActivityAt: 0, lastMessageId: null, preview: null, unreadCount: 0, mute: null }
}

/** Answers every action of the service from memory; `failNext` makes the next call fail as the service connection would. */
class ScriptedActions implements MessageActionService {
  readonly calls: string[] = []
  #failure: ErrorCode | null = null

  failNext(code: ErrorCode): void {
    this.#failure = code
  }

  async #answer<T>(call: string, value: T): Promise<T> {
    this.calls.push(call)
    const failure = this.#failure
    this.#failure = null
    if (failure !== null) throw new AppError(failure, userMessageFor(failure), { cause: new Error(`the service refused ${call}`) })
    return value
  }

  react(_conversationId: string, messageId: string, emoji: string): Promise<Reaction[]> {
    return this.#answer(`react ${messageId} ${emoji}`, [{ emoji, userIds: ['me'] }])
  }
  unreact(_conversationId: string, messageId: string): Promise<Reaction[]> {
    return this.#answer(`unreact ${messageId}`, [])
  }
  editMessage(_conversationId: string, messageId: string, text: string): Promise<Message> {
    return this.#answer(`edit ${messageId}`, { ...message(messageId, text), editedAt: 1_700_000_060 })
  }
  deleteMessage(_conversationId: string, messageId: string): Promise<void> {
    return this.#answer(`delete ${messageId}`, undefined)
  }
  setPinned(_conversationId: string, messageId: string, pinned: boolean): Promise<void> {
    return this.#answer(`${pinned ? 'pin' : 'unpin'} ${messageId}`, undefined)
  }
  pinnedMessages(): Promise<Message[]> {
    return this.#answer('pinned', [message('3')])
  }
  mostLiked(_groupId: string, period: LikePeriod): Promise<Message[]> {
    return this.#answer(`most liked ${period}`, [message(period)])
  }
  likedByMe(): Promise<Message[]> {
    return this.#answer('mine', [message('mine')])
  }
  likedForMe(): Promise<Message[]> {
    return this.#answer('for me', [message('for-me')])
  }
}

function setUp(): { service: ScriptedActions; actions: MessageActions; changed: MessageChange[] } {
  const service = new ScriptedActions()
  const changed: MessageChange[] = []
  const known = new Map([
    ['g1', conversation('g1', 'group')],
    ['1+2', conversation('1+2', 'dm')]
  ])
  const actions = new MessageActions({
    service,
    conversation: (id) => {
      const found = known.get(id)
      if (found === undefined) throw new AppError('NOT_FOUND', 'That conversation is not in your list any more.')
      return found
    },
    changed: (change) => changed.push(change)
  })
  return { service, actions, changed }
}

describe('message actions', () => {
  it('passes on an accepted edit at once, as pushed ones are', async () => {
    const { actions, changed } = setUp()
    const edited = await actions.edit('g1', '5', 'better')
    expect(edited).toMatchObject({ id: '5', text: 'better', editedAt: 1_700_000_060 })
    expect(changed).toEqual([{ kind: 'replaced', message: edited }])
  })

  it('passes on each reaction, deletion and pin the service accepted, with what its answer says', async () => {
    const { actions, changed } = setUp()
    const reactions = await actions.react('g1', '5', '👍')
    await actions.unreact('g1', '5')
    await actions.delete('g1', '5')
    await actions.setPinned('g1', '5', true)
    expect(changed).toEqual([
      { kind: 'reacted', conversationId: 'g1', messageId: '5', reactions },
      { kind: 'reacted', conversationId: 'g1', messageId: '5', reactions: expect.any(Array) },
      { kind: 'deleted', conversationId: 'g1', messageId: '5' },
      { kind: 'pinned', conversationId: 'g1', messageId: '5', pinned: true }
    ])
  })

  it("words a refused edit and a refused delete for the user, keeping the service's own error as the cause", async () => {
    const { service, actions, changed } = setUp()
    service.failNext('FORBIDDEN')
    const refusal = await actions.edit('g1', '5', 'late').catch((error: unknown) => error)
    expect(refusal).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('15 minutes') })
    expect((refusal as Error).cause).toMatchObject({ cause: { message: 'the service refused edit 5' } })
    expect(changed).toEqual([])

    service.failNext('FORBIDDEN')
    await expect(actions.delete('g1', '5')).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'You cannot delete this message: this conversation does not let you.' })
    service.failNext('VALIDATION')
    await expect(actions.react('g1', '5', '👍')).rejects.toMatchObject({ code: 'VALIDATION', message: 'That reaction is not one the service accepts.' })
    expect(changed).toEqual([])
  })

  it('leaves other failures as they are: an outage is not a refusal', async () => {
    const { service, actions } = setUp()
    service.failNext('NETWORK')
    await expect(actions.edit('g1', '5', 'x')).rejects.toMatchObject({ code: 'NETWORK', message: userMessageFor('NETWORK') })
    service.failNext('NETWORK')
    await expect(actions.delete('g1', '5')).rejects.toMatchObject({ code: 'NETWORK' })
  })

  it('takes a pin already made (or an unpin already done) as done, and fails on anything else', async () => {
    const { service, actions } = setUp()
    service.failNext('VALIDATION')
    await expect(actions.setPinned('g1', '5', true)).resolves.toBeUndefined()
    service.failNext('VALIDATION')
    await expect(actions.setPinned('1+2', '5', false)).resolves.toBeUndefined()
    service.failNext('FORBIDDEN')
    await expect(actions.setPinned('g1', '5', true)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(service.calls).toEqual(['pin 5', 'unpin 5', 'pin 5'])
  })

  it('gathers Most liked from the three periods and both lists of a group, and refuses it for a chat', async () => {
    const { service, actions } = setUp()
    const liked = await actions.mostLiked('g1')
    const ids = (messages: Message[]): string[] => messages.map((m) => m.id)
    expect({ day: ids(liked.day), week: ids(liked.week), month: ids(liked.month), mine: ids(liked.mine), forMe: ids(liked.forMe) }).toEqual({
      day: ['day'],
      week: ['week'],
      month: ['month'],
      mine: ['mine'],
      forMe: ['for-me']
    })
    service.calls.length = 0
    await expect(actions.mostLiked('1+2')).rejects.toMatchObject({ code: 'VALIDATION' })
    expect(service.calls).toEqual([])
  })

  it('asks the service nothing about a conversation that is not the user’s', async () => {
    const { service, actions } = setUp()
    await expect(actions.react('nope', '5', '👍')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(actions.pinned('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(actions.setPinned('nope', '5', true)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(service.calls).toEqual([])
  })
})
