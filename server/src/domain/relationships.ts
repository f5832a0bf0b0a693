import type { Statement } from 'better-sqlite3-multiple-ciphers'
import { randomUUID } from 'node:crypto'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import { badRequest, notFound } from '../http/errors.js'
import { Accounts } from './accounts.js'
import { Blocks } from './blocks.js'
import { constantTimeEqual } from './secrets.js'

/**
 * Relationships (contacts, §6): the share-link route (R2, reason 1), contact import (R3, reason 2)
 * with its batch results (R4), listing by creation time (R1) and removal (R5).
 */

export const PAGE_SIZE = 50
export const BATCH_LIFETIME_SECONDS = 3600

export const REASON_SHARE_LINK = 1
export const REASON_IMPORT = 2

/** §15.7 relationship. */
export interface RelationshipJson {
  id: string
  user_id: string
  name: string
  avatar_url: string | null
  created_at: number
  updated_at: number
  created_at_iso8601: string
  updated_at_iso8601: string
  reason: number
  hidden: false
  app_installed: true
  mri: string
  blocked?: boolean
  guid?: string
}

interface RelationshipRow {
  owner_id: number
  user_id: number
  reason: number
  created_at_us: number
  updated_at_us: number
  name: string
  image_url: string | null
}

export interface ImportEntry {
  name: string
  guid: string
  phone_number: string
}

const SELECT = `SELECT r.*, u.name, u.image_url FROM relationships r JOIN users u ON u.id = r.user_id`

export class Relationships {
  readonly #core: Core
  readonly #find: Statement<[number, number], RelationshipRow>
  readonly #page: Statement<[{ owner: number; since: number; limit: number }], RelationshipRow>
  readonly #lastCreated: Statement<[number], { last: number }>
  readonly #setLastCreated: Statement<[number, number]>
  readonly #insert: Statement<[number, number, number, number, number]>
  readonly #delete: Statement<[number, number]>
  readonly #insertBatch: Statement<[string, number, number]>
  readonly #insertEntry: Statement<[string, number, number, string]>
  readonly #batch: Statement<[string], { owner_id: number; created_at: number }>
  readonly #entries: Statement<[string], { user_id: number; guid: string }>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#find = db.prepare(`${SELECT} WHERE r.owner_id = ? AND r.user_id = ?`)
    this.#page = db.prepare(
      `${SELECT} WHERE r.owner_id = @owner AND r.created_at_us > @since ORDER BY r.created_at_us LIMIT @limit`
    )
    this.#lastCreated = db.prepare('SELECT last_created_us AS last FROM relationship_clocks WHERE owner_id = ?')
    this.#setLastCreated = db.prepare(
      `INSERT INTO relationship_clocks (owner_id, last_created_us) VALUES (?, ?)
       ON CONFLICT (owner_id) DO UPDATE SET last_created_us = excluded.last_created_us`
    )
    this.#insert = db.prepare(
      'INSERT INTO relationships (owner_id, user_id, reason, created_at_us, updated_at_us) VALUES (?, ?, ?, ?, ?)'
    )
    this.#delete = db.prepare('DELETE FROM relationships WHERE owner_id = ? AND user_id = ?')
    this.#insertBatch = db.prepare('INSERT INTO relationship_batches (id, owner_id, created_at) VALUES (?, ?, ?)')
    this.#insertEntry = db.prepare(
      'INSERT INTO relationship_batch_entries (batch_id, position, user_id, guid) VALUES (?, ?, ?, ?)'
    )
    this.#batch = db.prepare('SELECT owner_id, created_at FROM relationship_batches WHERE id = ?')
    this.#entries = db.prepare(
      'SELECT user_id, guid FROM relationship_batch_entries WHERE batch_id = ? ORDER BY position'
    )
  }

  /** The owner's relationship to `userId`, if any (§15.7, without `blocked`). */
  find(ownerId: number, userId: number): RelationshipJson | null {
    const row = this.#find.get(ownerId, userId)
    return row === undefined ? null : shape(row)
  }

  /**
   * R1: at most 50 relationships created after `sinceMicros` (exclusive), oldest first, each with
   * `blocked` (the owner blocks that user). Without `includeBlocked`, blocked users are skipped
   * (and do not use up the page).
   */
  list(ownerId: number, sinceMicros: number, includeBlocked: boolean): RelationshipJson[] {
    const blocks = this.#core.use(Blocks)
    const out: RelationshipJson[] = []
    let since = sinceMicros
    for (;;) {
      const rows = this.#page.all({ owner: ownerId, since, limit: PAGE_SIZE })
      for (const row of rows) {
        const blocked = blocks.blocks(ownerId, row.user_id)
        if (blocked && !includeBlocked) continue
        out.push({ ...shape(row), blocked })
        if (out.length === PAGE_SIZE) return out
      }
      const last = rows.at(-1)
      if (rows.length < PAGE_SIZE || last === undefined) return out
      since = last.created_at_us
    }
  }

  /** R2: adds `userId` by their contact share token (reason 1); nothing changes if it exists. */
  createByShareToken(ownerId: number, userId: number | null, token: string): void {
    const account = userId === null ? undefined : this.#core.use(Accounts).byId(userId)
    if (account === undefined) throw notFound('No such user')
    if (account.id === ownerId) throw badRequest('You cannot add yourself as a contact')
    if (!constantTimeEqual(token, account.share_token)) throw badRequest('The share token is not valid for this user')
    this.#core.transaction(() => this.#add(ownerId, account.id, REASON_SHARE_LINK))
  }

  /**
   * R3: every entry whose phone matches another account adds a relationship with reason 2 unless
   * one exists; the matched entries are kept, in request order, as the batch results (R4). The
   * caller's own phone matches nothing (§18.20).
   */
  importContacts(ownerId: number, entries: readonly ImportEntry[]): string {
    const accounts = this.#core.use(Accounts)
    const batchId = randomUUID()
    this.#core.transaction(() => {
      this.#insertBatch.run(batchId, ownerId, this.#core.clock.now())
      entries.forEach((entry, position) => {
        const account = accounts.byPhone(entry.phone_number)
        if (account === undefined || account.id === ownerId) return
        this.#add(ownerId, account.id, REASON_IMPORT)
        this.#insertEntry.run(batchId, position, account.id, entry.guid)
      })
    })
    return batchId
  }

  /**
   * R4: for each matched entry, in request order, the owner's relationship to that user plus the
   * entry's `guid`. An entry whose relationship has since been deleted (R5) is left out.
   */
  batchResults(ownerId: number, batchId: string): RelationshipJson[] {
    const batch = this.#batch.get(batchId)
    if (batch === undefined || batch.owner_id !== ownerId) throw notFound('No such batch')
    if (this.#core.clock.now() - batch.created_at > BATCH_LIFETIME_SECONDS) throw notFound('No such batch')
    const out: RelationshipJson[] = []
    for (const entry of this.#entries.all(batchId)) {
      const relationship = this.find(ownerId, entry.user_id)
      if (relationship !== null) out.push({ ...relationship, guid: entry.guid })
    }
    return out
  }

  /** R5. */
  remove(ownerId: number, userId: number | null): void {
    if (userId === null || this.#delete.run(ownerId, userId).changes === 0) throw notFound('Not a contact')
  }

  /** Inserts unless it exists; creation times per owner strictly increase (1 µs bumps, §6). */
  #add(ownerId: number, userId: number, reason: number): void {
    if (this.#find.get(ownerId, userId) !== undefined) return
    const last = this.#lastCreated.get(ownerId)?.last ?? 0
    const at = Math.max(Math.floor(this.#core.clock.nowMicros()), last + 1)
    this.#insert.run(ownerId, userId, reason, at, at)
    this.#setLastCreated.run(ownerId, at)
  }
}

function shape(row: RelationshipRow): RelationshipJson {
  const id = String(row.user_id)
  return {
    id,
    user_id: id,
    name: row.name,
    avatar_url: row.image_url,
    created_at: Math.floor(row.created_at_us / 1_000_000),
    updated_at: Math.floor(row.updated_at_us / 1_000_000),
    created_at_iso8601: isoFromMicros(row.created_at_us),
    updated_at_iso8601: isoFromMicros(row.updated_at_us),
    reason: row.reason,
    hidden: false,
    app_installed: true,
    mri: `u:${id}`
  }
}
