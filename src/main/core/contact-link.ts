// A contact link as the service hands it out (docs/protocol.md §6): `<origin>/contact/<user_id>/<token>`,
// the token being that user's contact share token. Whatever the user pastes is read here.
import { readPastedLink } from './pasted-link'

export interface ContactLink {
  userId: string
  token: string
  /** Where it leads: the service's share origin, or a stranger's (share-origins.ts tells). */
  origin: string
  host: string
}

const USER_ID = /^[1-9][0-9]*$/
const TOKEN = /^[A-Za-z0-9]+$/

/**
 * The user and token a pasted link names, or null when the text is not a contact link or carries
 * a query or fragment after it. R2 checks the token.
 */
export function parseContactLink(text: string): ContactLink | null {
  const link = readPastedLink(text)
  if (link === null || link.hasQueryOrFragment || link.segments.length !== 3) return null
  const [kind, userId = '', token = ''] = link.segments
  if (kind !== 'contact' || !USER_ID.test(userId) || !TOKEN.test(token)) return null
  return { userId, token, origin: link.origin, host: link.host }
}
