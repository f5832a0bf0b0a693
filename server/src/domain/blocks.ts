import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'

/**
 * Blocks between users (§5). The effects live with the operations they change: C3 asks
 * `blocks(recipient, sender)`, MB2 asks `blocks(account, adder)`, U3 asks `eitherBlocks`, and R1
 * shows `blocks(owner, contact)` as `blocked`.
 */

/** §15.7 block. */
export interface BlockJson {
  user_id: string
  blocked_user_id: string
  created_at: number
}

interface BlockRow {
  user_id: number
  blocked_user_id: number
  created_at: number
}

export class Blocks {
  readonly #core: Core
  readonly #blocks: Statement<[number, number], { one: number }>
  readonly #find: Statement<[number, number], BlockRow>
  readonly #of: Statement<[number], BlockRow>
  readonly #insert: Statement<[number, number, number]>
  readonly #delete: Statement<[number, number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#blocks = db.prepare('SELECT 1 AS one FROM blocks WHERE user_id = ? AND blocked_user_id = ?')
    this.#find = db.prepare('SELECT user_id, blocked_user_id, created_at FROM blocks WHERE user_id = ? AND blocked_user_id = ?')
    // Oldest first; the rowid breaks ties within one second (§18.16).
    this.#of = db.prepare('SELECT user_id, blocked_user_id, created_at FROM blocks WHERE user_id = ? ORDER BY created_at, rowid')
    this.#insert = db.prepare('INSERT OR IGNORE INTO blocks (user_id, blocked_user_id, created_at) VALUES (?, ?, ?)')
    this.#delete = db.prepare('DELETE FROM blocks WHERE user_id = ? AND blocked_user_id = ?')
  }

  /** Whether `blocker` has blocked `blocked`. */
  blocks(blocker: number, blocked: number): boolean {
    return this.#blocks.get(blocker, blocked) !== undefined
  }

  /** Whether either user blocks the other (B2, U3's `direct_message_capable`). */
  eitherBlocks(a: number, b: number): boolean {
    return this.blocks(a, b) || this.blocks(b, a)
  }

  /** B1: the caller's blocks, oldest first. */
  list(userId: number): BlockJson[] {
    return this.#of.all(userId).map(shape)
  }

  /** B3: blocks `blocked`, or returns the existing block unchanged. */
  block(blocker: number, blocked: number): BlockJson {
    this.#insert.run(blocker, blocked, this.#core.clock.now())
    const row = this.#find.get(blocker, blocked)
    if (row === undefined) throw new Error('block vanished after insert')
    return shape(row)
  }

  /** B4, B5: false when there was no such block. */
  unblock(blocker: number, blocked: number): boolean {
    return this.#delete.run(blocker, blocked).changes > 0
  }
}

function shape(row: BlockRow): BlockJson {
  return { user_id: String(row.user_id), blocked_user_id: String(row.blocked_user_id), created_at: row.created_at }
}
