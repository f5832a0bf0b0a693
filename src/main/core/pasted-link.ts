// A link the user pastes (someone's contact link, a group's share link), read as a web address.
// Any http(s) origin is taken: the service's public origin is not core's to know.

export interface PastedLink {
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
  return { segments: path.split('/').slice(1), hasQueryOrFragment: url.search !== '' || url.hash !== '' }
}
