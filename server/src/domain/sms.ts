import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { phoneDigits } from './phones.js'

/** The SMS the service "sends": kept in an outbox that `/dev/outbox` shows (§17). */

export interface OutboxEntry {
  to: string
  text: string
  sent_at: number
}

export class SmsOutbox {
  readonly #core: Core
  readonly #insert: Statement<[string, string, string, number]>
  readonly #all: Statement<[], OutboxEntry>
  readonly #to: Statement<[string], OutboxEntry>

  constructor(core: Core) {
    this.#core = core
    this.#insert = core.db.prepare('INSERT INTO sms_outbox (to_number, to_digits, text, sent_at) VALUES (?, ?, ?, ?)')
    this.#all = core.db.prepare('SELECT to_number AS "to", text, sent_at FROM sms_outbox ORDER BY id')
    this.#to = core.db.prepare('SELECT to_number AS "to", text, sent_at FROM sms_outbox WHERE to_digits = ? ORDER BY id')
  }

  send(to: string, text: string): void {
    this.#insert.run(to, phoneDigits(to), text, this.#core.clock.now())
    this.#core.config.onSms?.(to, text)
  }

  /** Oldest first; `to` filters by phone digits. */
  list(to?: string): OutboxEntry[] {
    return to === undefined ? this.#all.all() : this.#to.all(phoneDigits(to))
  }
}
