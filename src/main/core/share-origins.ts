// Where the service's own share links live, so that a pasted link is taken only when it is one.
//
// The service writes every share_url it hands out, a group's `…/join_group/<id>/<token>` and a
// person's `…/contact/<id>/<token>`, under its public origin (SERVICE_PUBLIC_ORIGIN, docs/protocol.md
// §6, §7). A deployment may serve that origin from a host of its own, none of the six addresses
// the app is configured with, so the app does not work it out from its settings: it learns it from
// share_urls the service itself has sent during this session. That is the user's own contact link
// (U1's `share_url`, which every account has, asked for the first time a link is pasted), and any
// group's `share_url` the app reads. A link at any other origin is refused before anything is
// sent: its group id and token would otherwise go to this service as if the link were its own,
// and the stranger's address be shown as the request's.
//
// What was learned is forgotten when the session ends or the app moves to other service settings.

export type LinkKind = 'join_group' | 'contact'

const KIND_WORDS: Record<LinkKind, string> = { join_group: 'group links', contact: 'contact links' }

export interface ShareOriginsDependencies {
  /** U1's `share_url`: the user's own contact link, or null when the service gave none. */
  contactLink(): Promise<string | null>
}

export class ShareOrigins {
  readonly #deps: ShareOriginsDependencies
  readonly #known = new Set<string>()
  /** Bumped by `forget`, so an answer asked for before it is not learned after it. */
  #generation = 0
  /** U1 on its way, shared by whoever asks meanwhile. */
  #asking: Promise<void> | null = null

  constructor(deps: ShareOriginsDependencies) {
    this.#deps = deps
  }

  /** A share_url the service sent (a group's, say): its origin is the service's. */
  learn(shareUrl: string | null | undefined): void {
    const origin = originOf(shareUrl)
    if (origin !== null) this.#known.add(origin)
  }

  /**
   * Why a link at `origin` (shown as `host`) is not taken as the service's, in the user's words;
   * null when it is the service's own. The first time, the service is asked for the user's contact
   * link to learn where its links live (so a failure to reach it is this call's failure).
   */
  async problemWith(link: { origin: string; host: string }, kind: LinkKind): Promise<string | null> {
    if (!this.#known.has(link.origin)) await this.#learnFromContactLink()
    if (this.#known.has(link.origin)) return null
    const home = [...this.#known][0]
    if (home === undefined) return 'Your service has not said where its own links lead, so this link cannot be checked. Nothing was sent.'
    return `This link is not one of your service’s: it leads to ${link.host}, and your service’s ${KIND_WORDS[kind]} begin with ${home}/${kind}/. Nothing was sent.`
  }

  /** Whether links at `origin` are known to be the service's own; nothing is asked. */
  isTheService(origin: string | undefined): boolean {
    return origin !== undefined && this.#known.has(origin)
  }

  /** The origin the service's links live at, when one is known; for showing a link the app kept. */
  async home(): Promise<string | null> {
    await this.#learnFromContactLink().catch(() => undefined)
    return [...this.#known][0] ?? null
  }

  forget(): void {
    this.#generation += 1
    this.#known.clear()
    this.#asking = null
  }

  /** U1, once a session: a success is not asked again, a failure is, the next time a link comes. */
  #learnFromContactLink(): Promise<void> {
    if (this.#asking === null) {
      const generation = this.#generation
      this.#asking = this.#deps.contactLink().then(
        (url) => {
          if (generation === this.#generation) this.learn(url)
        },
        (error: unknown) => {
          // Asked again next time: the service may be back by then.
          if (generation === this.#generation) this.#asking = null
          throw error
        }
      )
    }
    return this.#asking
  }
}

function originOf(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}
