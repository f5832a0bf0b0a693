/**
 * The push channel forms a client may subscribe to (§14.2). Anything else — wildcards, `/meta/…`,
 * `/groups/…`, a `+` in a DM channel — is not a form at all (`405::Invalid channel`); whether a
 * well-formed channel is allowed for a user is a separate question (`403`).
 */

export type PushChannel =
  | { kind: 'user'; userId: number }
  | { kind: 'group'; groupId: number }
  | { kind: 'direct_message'; first: number; second: number }

const ID = '([1-9][0-9]{0,14})'
const USER = new RegExp(`^/user/${ID}$`)
const GROUP = new RegExp(`^/group/${ID}$`)
const DIRECT_MESSAGE = new RegExp(`^/direct_message/${ID}_${ID}$`)

export function parseChannel(name: unknown): PushChannel | null {
  if (typeof name !== 'string') return null
  let match = USER.exec(name)
  if (match?.[1] !== undefined) return { kind: 'user', userId: Number(match[1]) }
  match = GROUP.exec(name)
  if (match?.[1] !== undefined) return { kind: 'group', groupId: Number(match[1]) }
  match = DIRECT_MESSAGE.exec(name)
  if (match?.[1] !== undefined && match[2] !== undefined) {
    return { kind: 'direct_message', first: Number(match[1]), second: Number(match[2]) }
  }
  return null
}

export const userChannel = (userId: number | string): string => `/user/${userId}`
export const groupChannel = (groupId: number | string): string => `/group/${groupId}`
/** The DM channel of a chat: the chat id with `_` for `+`. */
export const directMessageChannel = (lo: number | string, hi: number | string): string => `/direct_message/${lo}_${hi}`

/** What the gateway needs to know from the rest of the service to authorize channels. */
export interface PushAuthority {
  /** The live token's user, or null for a missing, unknown, revoked or expired token. */
  callerOf(token: unknown): { userId: number; tokenId: number } | null
  tokenLive(tokenId: number): boolean
  mayUse(userId: number, channel: PushChannel): boolean
}
