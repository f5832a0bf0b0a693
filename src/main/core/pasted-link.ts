// A link the user pastes (someone's contact link, a group's share link), read as a web address.
// Any http(s) origin is read here; whether it is the service's own is for share-origins.ts to say.

export interface PastedLink {
  /** `scheme://host:port` as a URL compares it: lower-case host, no default port, no user name. */
  origin: string
  /** The host (and port) as shown to the user. */
  host: string
  /** The path cut at its slashes, one final slash aside: `/contact/12/Ab3/` gives `['contact', '12', 'Ab3']`. */
  segments: string[]
  /** A query or a fragment follows the path. */
  hasQueryOrFragment: boolean
}

/** The parts of a pasted http(s) link, around spaces; null for any text that is not such a link. */
export function readPastedLink(text: string): PastedLink | null {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname
  return { origin: url.origin, host: url.host, segments: path.split('/').slice(1), hasQueryOrFragment: url.search !== '' || url.hash !== '' }
}
