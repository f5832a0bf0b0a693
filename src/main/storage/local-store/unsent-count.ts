// Beside each store, a file that holds how many messages wait unsent in its outbox: a number and
// nothing else, never a word of what they say. A store that can no longer be read takes its outbox
// with it (the outbox is kept nowhere else, so that no message text is ever on disk in plain
// form); this count is what lets the notice that sets such a store aside say how many messages
// were lost with it, instead of losing them in silence.
import { readFileSync, rmSync } from 'node:fs'
import { writeFileAtomically } from '../data-dir'

/** How many messages waited unsent, or `unknown` when the file saying so cannot be read. */
export type UnsentCount = number | 'unknown'

export class UnsentCountFile {
  readonly #path: string
  /** What the file says, as far as this process wrote it; undefined until it writes it. */
  #written: number | undefined

  constructor(path: string) {
    this.#path = path
  }

  /** What the file says: 0 when there is none (no outbox was ever kept beside this store). */
  read(): UnsentCount {
    let text: string
    try {
      text = readFileSync(this.#path, 'utf8')
    } catch (error) {
      return (error as { code?: unknown }).code === 'ENOENT' ? 0 : 'unknown'
    }
    return /^\d{1,9}\n?$/.test(text) ? Number.parseInt(text, 10) : 'unknown'
  }

  /**
   * Writes the outbox's new length around `commit`, which replaces the outbox holding `before`
   * messages by one holding `after`: a count that grows is written before the commit and one that
   * shrinks after it, so that whenever the process stops, the file never says fewer than the store
   * holds. A count that cannot be written before the commit fails it (the outbox is then kept in
   * memory, as for any failed write); one that cannot be written after it is left higher than it
   * need be, which only ever says too much.
   */
  around(before: number, after: number, commit: () => void): void {
    if (after > before) this.#write(after)
    commit()
    if (after <= before) {
      try {
        this.#write(after)
      } catch {
        // Still at least what the store holds: see above.
      }
    }
  }

  remove(): void {
    rmSync(this.#path, { force: true })
    this.#written = undefined
  }

  #write(count: number): void {
    if (this.#written === count) return
    writeFileAtomically(this.#path, `${count}\n`)
    this.#written = count
  }
}
