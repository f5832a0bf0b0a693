// A contact link as the service hands it out (docs/protocol.md §6): `<origin>/contact/<user_id>/<token>`,
// the token being that user's contact share token. Whatever the user pastes is read here.

export interface ContactLink {
  userId: string
  token: string
}

const CONTACT_PATH = /^\/contact\/([1-9][0-9]*)\/([A-Za-z0-9]+)\/?$/

/**
 * The user and token a pasted link names, or null when the text is not a contact link. Any http(s)
 * origin is taken: the service's public origin is not core's to know, and R2 checks the token.
 */
export function parseContactLink(text: string): ContactLink | null {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const match = CONTACT_PATH.exec(url.pathname)
  if (match === null || url.search !== '' || url.hash !== '') return null
  const [, userId = '', token = ''] = match
  return { userId, token }
}
