import { describe, expect, it } from 'vitest'
import type { Message } from '../../shared/domain'
import { wireMessage } from '../api/decoders'
import type { PushEvents } from '../push/push-connection'
import type { WireReaction } from '../push/push-events'
import { reactionNews } from './reactions'

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
