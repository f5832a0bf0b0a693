// Where the outbox is kept between runs: in the signed-in account's store on this device, encrypted
// with everything else it keeps, and never in plain text. Each account's outbox is in its own
// store, so nothing one account wrote can go out as another: a session that expired leaves its
// messages in its store, to go when the same account signs in again, and another account signing
// in opens its own store and never sees them. When no store could be opened, or the outbox could
// not be written into it, the outbox lasts the run in memory (per account too); the store keeper's
// notice of that failure tells the person so, in one notice rather than two.
import type { PendingMessage } from '@shared/messages'
import type { Log } from '../log/log'
import type { LocalStore, Preferences } from './ports'
import type { StoreKeeper } from './store-keeper'

export interface OutboxKeeperDependencies {
  /** The account's store, whose writes run one behind another; null: this app keeps nothing on the device. */
  keeper: Pick<StoreKeeper, 'inTurn'> | null
  /** Where an older version kept the outbox, in plain text: moved into the store once, then removed. */
  preferences: Preferences
  log: Log
}

export class OutboxKeeper {
  readonly #deps: OutboxKeeperDependencies
  #accountId: string | null = null
  /** The account's store is open and holds its outbox: saves go there. */
  #inStore = false
  /** Each account's outbox while it cannot be in its store: while the store opens, or when none could be. */
  readonly #memory = new Map<string, PendingMessage[]>()
  /** Whose outbox the preferences hold, when an older version left one there: who was signed in then. */
  readonly #legacyOwner: string | null
  /** Resolves once the store that is opening holds the outbox. */
  #opening: Promise<void> = Promise.resolve()

  constructor(deps: OutboxKeeperDependencies) {
    this.#deps = deps
    this.#legacyOwner = deps.preferences.get('account')?.id ?? null
  }

  /**
   * The account signed in; `opened` resolves with its store, or null when none could be opened.
   * Resolves with what waited in its outbox, and what was written meanwhile, once both are kept.
   */
  signedIn(accountId: string, opened: Promise<LocalStore | null>): Promise<PendingMessage[]> {
    this.#accountId = accountId
    this.#inStore = false
    const kept = opened.then(
      (store) => this.#take(accountId, store),
      () => this.#take(accountId, null)
    )
    this.#opening = kept.then(() => undefined)
    return kept
  }

  /** Everything the account's outbox holds now; resolves once it is kept (in memory, when it cannot be on disk). */
  save(all: PendingMessage[]): Promise<void> {
    const accountId = this.#accountId
    const keeper = this.#deps.keeper
    if (accountId === null) return Promise.resolve()
    if (!this.#inStore || keeper === null) {
      this.#memory.set(accountId, all)
      return this.#opening
    }
    return keeper.inTurn(accountId, (store) => store.keepOutbox(all)).then((kept) => {
      // A write that failed (a full disk) is told by the keeper; this run still holds the messages.
      if (kept === null) this.#memory.set(accountId, all)
      else this.#memory.delete(accountId)
    })
  }

  /** The account signed out: its outbox stays where it is kept, for when it signs in again. */
  signedOut(): void {
    this.#accountId = null
    this.#inStore = false
    this.#opening = Promise.resolve()
  }

  async #take(accountId: string, store: LocalStore | null): Promise<PendingMessage[]> {
    if (this.#accountId !== accountId) return []
    const keeper = this.#deps.keeper
    const legacy = this.#legacyOutbox(accountId)
    if (store !== null && keeper !== null) {
      const moved = await keeper.inTurn(accountId, async (open) => {
        const merged = union(await open.outbox(), legacy, this.#memory.get(accountId) ?? [])
        await open.keepOutbox(merged)
        return merged
      })
      if (moved !== null) {
        // In the store now, encrypted: the plain copy goes.
        if (this.#deps.preferences.get('outbox') !== undefined) this.#deps.preferences.delete('outbox')
        this.#memory.delete(accountId)
        if (this.#accountId === accountId) this.#inStore = true
        return moved.value
      }
    }
    // Left where an older version put it: until a store can take it, that is its only copy that outlives the run.
    const inMemory = union(legacy, this.#memory.get(accountId) ?? [])
    this.#memory.set(accountId, inMemory)
    return inMemory
  }

  /** What an older version kept in the preferences for this account; another account's is dropped, as it always was. */
  #legacyOutbox(accountId: string): PendingMessage[] {
    const { preferences, log } = this.#deps
    const legacy = preferences.get('outbox')
    if (legacy === undefined || legacy.length === 0) return []
    if (this.#legacyOwner === accountId) return legacy
    log.warn(`dropped ${legacy.length} unsent message(s) an older version kept for another account`)
    preferences.delete('outbox')
    return []
  }
}

/** Each message once, by client id, in the order written. */
function union(...lists: PendingMessage[][]): PendingMessage[] {
  const byId = new Map<string, PendingMessage>()
  for (const list of lists) for (const message of list) if (!byId.has(message.clientId)) byId.set(message.clientId, message)
  return [...byId.values()].sort((a, b) => a.queuedAt - b.queuedAt)
}
