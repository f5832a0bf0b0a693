// Keeps the pictures of kept messages on this device while their links still work (a deployment's
// picture links may expire), so a stored history shows its pictures later and offline; and the
// avatars beside them (each sender's, each conversation's in the list), so offline is not faceless. It hears
// every message the flow carries, fetches the pictures the page would be allowed to load, a few at
// a time and newest first, and puts them in the account's picture cache. Fetches run beside
// everything else and nothing waits for them: a push on its way to the page never does.
//
// It also answers the page's requests for a kept picture (the hosts' local picture addresses,
// page-pictures.ts), fetching and keeping one the cache let go of since its address was handed out.
import type { Attachment, Message } from '@shared/messages'
import { isAllowedPicture } from '@shared/picture-origins'
import type { PictureCacheLimitMb } from '@shared/settings'
import type { Log } from '../log/log'
import type { MessageFlow } from './message-flow'
import type { PictureOrigins } from './page-pictures'
import type { KeptPicture, PictureCache, PictureUsage } from './ports'

export interface PictureKeeperDependencies {
  flow: Pick<MessageFlow, 'on'>
  /** The signed-in account's cache; null while nobody is signed in or the store is not open. */
  cache(): PictureCache | null
  download(url: string): Promise<KeptPicture>
  /** The origins the page may load pictures from now: the only ones pictures are fetched from. */
  origins: PictureOrigins
  limitMb: PictureCacheLimitMb
  log: Log
  /** Unix milliseconds. */
  now: () => number
}

/** How many pictures are fetched at once: a few, to be polite to the image service. */
const AT_ONCE = 2
/** Waiting pictures beyond this are forgotten, oldest first (a full-history download pages in many). */
const MAX_WAITING = 500

export class PictureKeeper {
  readonly #deps: PictureKeeperDependencies
  /** Picture address → when its message was written (Unix ms), the newest fetched first. */
  readonly #waiting = new Map<string, number>()
  /** Fetches under way, by address, so the page's request and the background share one. */
  readonly #fetching = new Map<string, Promise<KeptPicture | null>>()
  #running = 0
  #limitMb: PictureCacheLimitMb
  /** The cache the limit was last given to. */
  #limited: PictureCache | null = null

  constructor(deps: PictureKeeperDependencies) {
    this.#deps = deps
    this.#limitMb = deps.limitMb
    deps.flow.on('paged', (page) => this.#consider(page.messages))
    deps.flow.on('arrived', ({ message }) => this.#consider([message]))
    deps.flow.on('changed', (change) => {
      if (change.kind === 'replaced') this.#consider([change.message])
    })
  }

  /** Whether a picture from this address is kept, so the page may be given the local address. */
  has(url: string): boolean {
    return this.#cache()?.has(url) ?? false
  }

  /**
   * The picture for the page: the kept one, or else fetched now (and kept) if the page may load
   * it from there at all; null when neither works.
   */
  async serve(url: string): Promise<KeptPicture | null> {
    const cache = this.#cache()
    const kept = await cache?.read(url)
    if (kept !== null && kept !== undefined) return kept
    if (!isAllowedPicture(url, this.#deps.origins())) return null
    return this.#fetch(url, this.#deps.now())
  }

  setLimit(limitMb: PictureCacheLimitMb): void {
    if (limitMb === this.#limitMb) return
    this.#limitMb = limitMb
    this.#limited = null
    this.#cache()
  }

  /** How much the pictures take, and of how much; null while no account's cache is open. */
  usage(): PictureUsage | null {
    return this.#cache()?.usage() ?? null
  }

  /** The conversation list's pictures (groups' and people's avatars), kept as used now. */
  keepAvatars(urls: readonly (string | null)[]): void {
    const now = this.#deps.now()
    this.#wait(urls.flatMap((url) => (url === null ? [] : [{ url, usedAt: now }])))
  }

  /** Forgets what waited to be fetched (at sign-out); what is under way lands in the cache it began for, if still open. */
  clear(): void {
    this.#waiting.clear()
  }

  #consider(messages: Message[]): void {
    this.#wait(
      messages.flatMap((message) => {
        const usedAt = message.createdAt * 1000
        const avatar = message.senderAvatarUrl === null ? [] : [{ url: message.senderAvatarUrl, usedAt }]
        // What a deleted message showed is gone from the service; its sender's face is not.
        return message.deleted ? avatar : [...pictureUrls(message.attachments).map((url) => ({ url, usedAt })), ...avatar]
      })
    )
  }

  /** Queues each picture the page may load and the cache would keep, not kept or under way already. */
  #wait(pictures: { url: string; usedAt: number }[]): void {
    const cache = this.#cache()
    if (cache === null) return
    const origins = this.#deps.origins()
    for (const { url, usedAt } of pictures) {
      if (!isAllowedPicture(url, origins) || cache.has(url) || this.#fetching.has(url) || !cache.wouldKeep(usedAt)) continue
      this.#waiting.set(url, Math.max(usedAt, this.#waiting.get(url) ?? 0))
    }
    while (this.#waiting.size > MAX_WAITING) this.#waiting.delete(this.#next(false))
    this.#pump()
  }

  #pump(): void {
    while (this.#running < AT_ONCE && this.#waiting.size > 0) {
      const url = this.#next(true)
      const writtenAt = this.#waiting.get(url) ?? 0
      this.#waiting.delete(url)
      this.#running += 1
      void this.#fetch(url, writtenAt).finally(() => {
        this.#running -= 1
        this.#pump()
      })
    }
  }

  /** The waiting picture of the newest message, or of the oldest. */
  #next(newest: boolean): string {
    let chosen: [string, number] | null = null
    for (const entry of this.#waiting) {
      if (chosen === null || (newest ? entry[1] > chosen[1] : entry[1] < chosen[1])) chosen = entry
    }
    return chosen?.[0] ?? ''
  }

  /** Fetches the picture and keeps it as used at `usedAt`; null when it could not be fetched. */
  #fetch(url: string, usedAt: number): Promise<KeptPicture | null> {
    const under = this.#fetching.get(url)
    if (under !== undefined) return under
    const cache = this.#cache()
    const fetching = (async () => {
      try {
        const picture = await this.#deps.download(url)
        await cache?.keep(url, picture, usedAt)
        return picture
      } catch (error) {
        // An expired link or an image service out of reach: the page shows what it can without it.
        this.#deps.log.info('could not keep a picture', { url, error: error instanceof Error ? error.message : String(error) })
        return null
      } finally {
        this.#fetching.delete(url)
      }
    })()
    this.#fetching.set(url, fetching)
    return fetching
  }

  /** The cache in use, held to the limit the settings say. */
  #cache(): PictureCache | null {
    const cache = this.#deps.cache()
    if (cache !== null && cache !== this.#limited) {
      this.#limited = cache
      cache.setLimit(this.#limitMb * 1_000_000).catch((error: unknown) => this.#deps.log.warn('could not hold the picture cache to its limit', error))
    }
    return cache
  }
}

function pictureUrls(attachments: Attachment[]): string[] {
  return attachments.flatMap((attachment) => (attachment.type === 'image' ? [attachment.url] : []))
}
