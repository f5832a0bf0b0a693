import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { wireGroup, wireMessage } from '../api/decoders'
import type { Log } from '../log/log'
import type { PushEvents } from '../push/push-connection'
import type { WireReaction } from '../push/push-events'
import { reactionNews, reactionToYourMessage, type ReactionContext } from './reactions'

const ME = '1'
const OWN_CHANNEL = `/user/${ME}`

function favorite(overrides: { channel?: string; actorId?: string | null; senderId?: string; reactions?: WireReaction[] } = {}): PushEvents['favorite'] {
  const senderId = overrides.senderId ?? ME
  const message: Message = {
    id: '100',
    conversationId: '42',
    sourceGuid: 'g',
    senderId,
    senderName: 'Ada',
    senderAvatarUrl: null,
    text: 'Cake on Friday',
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
  return {
    channel: overrides.channel ?? OWN_CHANNEL,
    message,
    wire: wireMessage.parse({ id: '100', text: 'Cake on Friday', created_at: 1_700_000_000, group_id: '42', user_id: senderId }),
    reactions: overrides.reactions ?? [{ type: 'unicode', code: '🎉', pack_id: null, pack_index: null, user_ids: ['2'] }],
    actorId: overrides.actorId === undefined ? '2' : overrides.actorId
  }
}

describe('reactionNews', () => {
  it('tells of a reaction someone else just made to your message, with its character', () => {
    expect(reactionNews(favorite(), ME, OWN_CHANNEL)).toEqual({ reactorId: '2', emoji: '🎉' })
  })

  it('finds the actor\'s reaction among several', () => {
    const reactions: WireReaction[] = [
      { type: 'unicode', code: '👍', pack_id: null, pack_index: null, user_ids: ['3', '4'] },
      { type: 'unicode', code: '🔥', pack_id: null, pack_index: null, user_ids: ['5', '2'] }
    ]
    expect(reactionNews(favorite({ reactions }), ME, OWN_CHANNEL)).toEqual({ reactorId: '2', emoji: '🔥' })
  })

  it('gives no character for a picture from an emoji pack', () => {
    const reactions: WireReaction[] = [{ type: 'emoji', code: null, pack_id: 1, pack_index: 3, user_ids: ['2'] }]
    expect(reactionNews(favorite({ reactions }), ME, OWN_CHANNEL)).toEqual({ reactorId: '2', emoji: null })
  })

  it('says nothing of a reaction taken back: the actor is no longer in the list', () => {
    const reactions: WireReaction[] = [{ type: 'unicode', code: '👍', pack_id: null, pack_index: null, user_ids: ['3'] }]
    expect(reactionNews(favorite({ reactions }), ME, OWN_CHANNEL)).toBeNull()
    expect(reactionNews(favorite({ reactions: [] }), ME, OWN_CHANNEL)).toBeNull()
  })

  it('says nothing of your own reaction, of a reaction to someone else\'s message, or of one with no actor', () => {
    expect(reactionNews(favorite({ actorId: ME, reactions: [{ type: 'unicode', code: '🎉', pack_id: null, pack_index: null, user_ids: [ME] }] }), ME, OWN_CHANNEL)).toBeNull()
    expect(reactionNews(favorite({ senderId: '3' }), ME, OWN_CHANNEL)).toBeNull()
    expect(reactionNews(favorite({ actorId: null }), ME, OWN_CHANNEL)).toBeNull()
  })

  it('takes the copy on the conversation\'s channel as no news, so a reaction is told once', () => {
    expect(reactionNews(favorite({ channel: '/group/42' }), ME, OWN_CHANNEL)).toBeNull()
  })
})

describe('reactionToYourMessage', () => {
  const warnings: string[] = []
  const log: Log = { info: () => undefined, warn: (message) => void warnings.push(message), error: () => undefined }
  const bookClub = wireGroup.parse({
    id: '42',
    name: 'Book Club',
    members: [
      { id: 'm1', user_id: ME, nickname: 'Countess', muted: true },
      { id: 'm2', user_id: '2', nickname: 'Amazing Grace', muted: false }
    ]
  })
  const context = (group: ReactionContext['group']): ReactionContext => ({ meId: ME, ownChannel: OWN_CHANNEL, group, log })

  it('names who reacted in a group by their nickname there', async () => {
    const asked: string[] = []
    const reaction = await reactionToYourMessage(favorite(), context(async (groupId) => (asked.push(groupId), bookClub)))
    expect(asked).toEqual(['42'])
    expect(reaction).toMatchObject({ conversationId: '42', reactorId: '2', reactorName: 'Amazing Grace', emoji: '🎉', message: { id: '100' } })
  })

  it('still tells of the reaction, unnamed, when the group cannot be read, and says why in the log', async () => {
    const reaction = await reactionToYourMessage(favorite(), context(async () => Promise.reject(new Error('offline'))))
    expect(reaction).toMatchObject({ reactorId: '2', reactorName: null, emoji: '🎉' })
    expect(warnings).toEqual(['could not look up who reacted in group 42'])
  })

  it('leaves unnamed a reactor the group no longer lists', async () => {
    const reaction = await reactionToYourMessage(favorite({ actorId: '9', reactions: [{ type: 'unicode', code: '👀', pack_id: null, pack_index: null, user_ids: ['9'] }] }), context(async () => bookClub))
    expect(reaction).toMatchObject({ reactorId: '9', reactorName: null })
  })

  it('asks nothing of the service for a reaction that is no news, nor for one in a chat', async () => {
    const asked: string[] = []
    const group: ReactionContext['group'] = async (groupId) => (asked.push(groupId), bookClub)
    expect(await reactionToYourMessage(favorite({ reactions: [] }), context(group))).toBeNull()
    const inChat = favorite()
    const reaction = await reactionToYourMessage({ ...inChat, message: { ...inChat.message, conversationId: '1+2' } }, context(group))
    expect(reaction).toMatchObject({ conversationId: '1+2', reactorName: null })
    expect(asked).toEqual([])
  })
})
