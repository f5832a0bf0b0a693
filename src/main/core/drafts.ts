// What the signed-in person was writing in each conversation and has not sent (shared/drafts.ts).
// Main holds every draft in memory and keeps each change in the account's store, encrypted with
// everything else it keeps, so a draft outlives a reload of the page and a restart of the app. A
// save answers once the draft is held here, not once it is on disk: typing never waits for the
// store, and a store that cannot be written (a full disk, none opened, none at all in this host)
// still leaves every draft here for the rest of the run; the store keeper tells the person once
// that what they write is no longer kept.
import type { ConversationId } from '@shared/conversation-id'
import type { Draft, DraftPicture } from '@shared/drafts'
import { isEmptyDraft } from '@shared/drafts'
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import type { LocalStore } from './ports'
import type { StoreKeeper } from './store-keeper'

export interface DraftKeeperDependencies {
  /** The account's store, whose writes run one behind another; null: this app keeps nothing on the device. */
  keeper: Pick<StoreKeeper, 'inTurn'> | null
  /** Unix milliseconds. */
  now: () => number
}

export class DraftKeeper {
  readonly #deps: DraftKeeperDependencies
  /** Whose drafts are held: the account signed in, or the last one until another signs in. */
  #accountId: string | null = null
  #signedIn = false
  readonly #drafts = new Map<ConversationId, Draft>()
  /**
   * Conversations whose draft changed since the account signed in: what the store kept of them is
   * older, and must not come back over a draft sent or erased while the store was opening.
   */
  readonly #changed = new Set<ConversationId>()
  /** Settles once the store's drafts are read in (or there is none to read). */
  #loaded: Promise<void> = Promise.resolve()

  constructor(deps: DraftKeeperDependencies) {
    this.#deps = deps
  }

  /**
   * The account signed in: its drafts are read from its store, once open. Those held from an
   * expired session of the same account stay (and are written again, in case they never reached
   * the store); another account's go.
   */
  signedIn(accountId: string): void {
    if (this.#accountId !== accountId) this.#drafts.clear()
    this.#accountId = accountId
    this.#signedIn = true
    this.#changed.clear()
    for (const conversationId of this.#drafts.keys()) this.#changed.add(conversationId)
    const keeper = this.#deps.keeper
    if (keeper === null) {
      this.#loaded = Promise.resolve()
      return
    }
    this.#loaded = keeper
      .inTurn(accountId, async (store) => {
        const kept = await store.drafts()
        if (this.#accountId !== accountId) return
        for (const draft of kept) if (!this.#changed.has(draft.conversationId)) this.#drafts.set(draft.conversationId, draft)
        for (const conversationId of this.#changed) await this.#writeTo(store, conversationId)
      })
      .then(() => undefined)
  }

  /** Signed out: by the user, everything of the account goes from this device, its drafts too; otherwise they wait for the same account. */
  signedOut(byUser: boolean): void {
    this.#signedIn = false
    if (!byUser) return
    this.#drafts.clear()
    this.#changed.clear()
    this.#accountId = null
  }

  /** Every draft held, the newest first, once the store's are read in. */
  async list(): Promise<Draft[]> {
    await this.#loaded
    if (!this.#signedIn) return []
    return [...this.#drafts.values()].sort((a, b) => b.savedAt - a.savedAt)
  }

  /**
   * The conversation's draft as it is now: held at once, and written into the store in turn with
   * its other writes. An empty one is no draft, and is forgotten.
   */
  keep(conversationId: ConversationId, text: string, pictures: DraftPicture[]): void {
    const accountId = this.#accountId
    if (accountId === null || !this.#signedIn) return
    this.#changed.add(conversationId)
    if (isEmptyDraft({ text, pictures })) this.#drafts.delete(conversationId)
    else this.#drafts.set(conversationId, { conversationId, text, pictures, savedAt: this.#deps.now() })
    void this.#deps.keeper?.inTurn(accountId, (store) => this.#writeTo(store, conversationId))
  }

  /** The account's store was made anew (the one before was damaged): every draft held goes into it. */
  rewrite(): void {
    const accountId = this.#accountId
    const keeper = this.#deps.keeper
    if (accountId === null || keeper === null) return
    for (const conversationId of this.#drafts.keys()) void keeper.inTurn(accountId, (store) => this.#writeTo(store, conversationId))
  }

  /** The conversation's draft as held when the write runs: a later change is written by its own turn, so writes never go back in time. */
  async #writeTo(store: LocalStore, conversationId: ConversationId): Promise<void> {
    const draft = this.#drafts.get(conversationId)
    if (draft === undefined) await store.forgetDraft(conversationId)
    else await store.keepDraft(draft)
  }
}

type DraftChannel = Extract<keyof InvokeHandlers, `drafts:${string}`>
export type DraftHandlers = Pick<InvokeHandlers, DraftChannel>

export function draftHandlers(context: Pick<FeatureContext, 'me'>, drafts: DraftKeeper): DraftHandlers {
  return {
    'drafts:list': async () => {
      context.me()
      return drafts.list()
    },
    'drafts:keep': async ({ conversationId, text, pictures }) => {
      context.me()
      drafts.keep(conversationId, text, pictures)
      return null
    }
  }
}
