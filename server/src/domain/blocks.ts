import type { Statement } from 'better-sqlite3'
import type { Core } from '../core.js'

/** Blocks between users (§5). So far only the question C3 and MB2 ask: does A block B? */
export class Blocks {
  readonly #blocks: Statement<[number, number], { one: number }>

  constructor(core: Core) {
    this.#blocks = core.db.prepare('SELECT 1 AS one FROM blocks WHERE user_id = ? AND blocked_user_id = ?')
  }

  /** Whether `blocker` has blocked `blocked`. */
  blocks(blocker: number, blocked: number): boolean {
    return this.#blocks.get(blocker, blocked) !== undefined
  }
}
