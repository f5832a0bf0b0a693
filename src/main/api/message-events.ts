// What a system message announces (docs/protocol.md §14.5), read from its `event` into the app's
// `MessageEvent` with the names the service put in `data`. Texts are free on the wire, so the app
// writes its own lines from these rather than showing whatever text came along.
import { z } from 'zod'
import type { MessageEvent } from '@shared/messages'
import { displayName, wireId, type WireMessage } from './decoders'

const person = z.looseObject({ id: wireId.optional(), nickname: displayName })
const pollRef = z.looseObject({ poll: z.looseObject({ id: wireId, subject: displayName }) })

const readers: Record<string, (data: unknown) => MessageEvent | null> = {
  'membership.announce.joined': (data) => one(z.looseObject({ user: person }), data, ({ user }) => ({ kind: 'joined', user: user.nickname })),
  'membership.announce.rejoined': (data) =>
    one(z.looseObject({ user: person }), data, ({ user }) => ({ kind: 'rejoined', user: user.nickname })),
  'membership.announce.added': (data) =>
    one(z.looseObject({ added_users: z.array(person), adder_user: person }), data, ({ added_users, adder_user }) => ({
      kind: 'added',
      users: added_users.map((user) => user.nickname),
      by: adder_user.nickname
    })),
  'membership.notifications.exited': (data) =>
    one(z.looseObject({ removed_user: person }), data, ({ removed_user }) => ({ kind: 'left', user: removed_user.nickname })),
  'membership.notifications.removed': (data) =>
    one(z.looseObject({ removed_user: person, remover_user: person }), data, ({ removed_user, remover_user }) => ({
      kind: 'removed',
      user: removed_user.nickname,
      by: remover_user.nickname
    })),
  'membership.nickname_changed': (data) =>
    one(z.looseObject({ user: person, name: displayName }), data, ({ user, name }) => ({ kind: 'nicknameChanged', from: user.nickname, to: name })),
  'message.pinned': (data) => one(z.looseObject({ pinned: z.boolean() }), data, ({ pinned }) => ({ kind: 'pinned', pinned })),
  'poll.created': (data) => one(pollRef, data, ({ poll }) => ({ kind: 'pollCreated', pollId: poll.id, subject: poll.subject })),
  'poll.finished': (data) => one(pollRef, data, ({ poll }) => ({ kind: 'pollFinished', pollId: poll.id, subject: poll.subject }))
}

function one<T>(schema: z.ZodType<T>, data: unknown, read: (value: T) => MessageEvent): MessageEvent | null {
  const parsed = schema.safeParse(data)
  return parsed.success ? read(parsed.data) : null
}

/** The event a message announces; null for an ordinary message, or an event the app does not show as its own line. */
export function toMessageEvent(event: WireMessage['event']): MessageEvent | null {
  if (event === null || event === undefined) return null
  return readers[event.type]?.(event.data) ?? null
}
