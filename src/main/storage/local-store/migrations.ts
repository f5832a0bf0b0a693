// The store's schema, one migration per version, forward only. The database's `user_version` says
// which have run; each runs in a transaction with the version it brings, so a crash leaves the
// schema wholly at one version or the next. A migration once shipped is never edited: a change is
// a new one at the end, tested on a database the previous version made, with real rows in it.
import type { Database } from 'better-sqlite3-multiple-ciphers'
import type { Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { indexRow, pollIdOf } from './search-text'

export interface Migration {
  /** What it brings, in a few words. */
  readonly name: string
  up(db: Database): void
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'conversations, messages and the stretches of history known, polls, outbox',
    up: (db) =>
      db.exec(`
        -- The list as the service last gave it, in its order; each row the app's own shape.
        CREATE TABLE conversations (
          id TEXT PRIMARY KEY,
          position INTEGER NOT NULL,
          json TEXT NOT NULL
        );

        -- Every message kept. Ids stay text, exactly as the service gives them (they can exceed
        -- 2^53); sort_key is the same number as an integer, for order. The integer rowid is what a
        -- full-text index refers to. Columns beside json are those queried.
        CREATE TABLE messages (
          rowid INTEGER PRIMARY KEY,
          conversation_id TEXT NOT NULL,
          id TEXT NOT NULL,
          sort_key INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          sender_id TEXT NOT NULL,
          deleted INTEGER NOT NULL DEFAULT 0,
          json TEXT NOT NULL,
          UNIQUE (conversation_id, sort_key)
        );

        -- Stretches of a history known to have nothing missing between their first and last
        -- message (both included), and whether nothing is older than the first. A message outside
        -- every run is known alone (pushed, say): a gap may lie on either side of it.
        CREATE TABLE runs (
          conversation_id TEXT NOT NULL,
          first_key INTEGER NOT NULL,
          last_key INTEGER NOT NULL,
          reaches_start INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX runs_by_conversation ON runs (conversation_id, last_key);

        CREATE TABLE polls (
          id TEXT PRIMARY KEY,
          conversation_id TEXT NOT NULL,
          json TEXT NOT NULL
        );

        -- What the user wrote that the service has not accepted, in the order written.
        CREATE TABLE outbox (
          client_id TEXT PRIMARY KEY,
          position INTEGER NOT NULL,
          json TEXT NOT NULL
        );
      `)
  },
  {
    name: 'groups with their members, and the people seen',
    up: (db) =>
      db.exec(`
        -- Each group's details as the service last gave them (G4), its members among them.
        CREATE TABLE groups (
          id TEXT PRIMARY KEY,
          json TEXT NOT NULL
        );

        -- Everyone whose name and picture the app looked up (U3).
        CREATE TABLE people (
          id TEXT PRIMARY KEY,
          json TEXT NOT NULL
        );
      `)
  },
  {
    name: 'the search index over every kept message, and messages by time',
    up: (db) => {
      db.exec(`
        -- Newest first, and the oldest kept, without reading every row.
        CREATE INDEX messages_by_time ON messages (created_at);

        -- Every message's words by its rowid in messages: body (text, location names, its poll's
        -- question and options), sender (the name on it), facets (tokens filters match: see
        -- search-text.ts). Contentless: the text is already in messages, and what the index is
        -- given is not what is shown (words of some scripts set apart), so a copy would serve
        -- nothing; contentless_delete lets a row be replaced or removed by its rowid alone, so an
        -- edit and a deletion need not know what was indexed before. Marks count as parts of words
        -- (Thai vowels, Devanagari signs), and accents on Latin letters are dropped. Prefixes of 1
        -- to 4 characters have an index of their own: a word being typed is matched by prefix, and
        -- without one FTS5 reads every word under the prefix whole, the common ones too ('this'
        -- for 'this*'), at each evaluation.
        CREATE VIRTUAL TABLE message_search USING fts5(
          body, sender, facets,
          content = '', contentless_delete = 1, prefix = '1 2 3 4',
          tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
        );
      `)
      buildSearchIndex(db)
    }
  },
  {
    name: 'unsent drafts',
    up: (db) =>
      db.exec(`
        -- What the person was writing in each conversation and has not sent: its text and the
        -- pictures chosen (as uploaded), kept until sent or erased.
        CREATE TABLE drafts (
          conversation_id TEXT PRIMARY KEY,
          saved_at INTEGER NOT NULL,
          json TEXT NOT NULL
        );
      `)
  },
  {
    name: 'the conversation left open',
    up: (db) =>
      db.exec(`
        -- The conversation open when the app last stopped, opened again at the next start. One row
        -- at most; none when no conversation was open.
        CREATE TABLE left_open (
          only INTEGER PRIMARY KEY CHECK (only = 1),
          conversation_id TEXT NOT NULL
        );
      `)
  }
]

const INDEX_BATCH = 5_000

/**
 * Indexes every kept message into an empty message_search, in rowid order, a batch at a time (a
 * statement cannot write while another reads). The migration that made the index runs it, and
 * whoever rebuilds one.
 */
export function buildSearchIndex(db: Database): void {
  const polls = new Map((db.prepare('SELECT id, json FROM polls').all() as { id: string; json: string }[]).map((row) => [row.id, row.json]))
  const batch = db.prepare('SELECT rowid, json FROM messages WHERE rowid > ? AND deleted = 0 ORDER BY rowid LIMIT ?')
  const insert = db.prepare('INSERT INTO message_search (rowid, body, sender, facets) VALUES (?, ?, ?, ?)')
  let after = 0
  for (;;) {
    const rows = batch.all(after, INDEX_BATCH) as { rowid: number; json: string }[]
    for (const { rowid, json } of rows) {
      const message = JSON.parse(json) as Message
      const pollId = pollIdOf(message)
      const pollJson = pollId === null ? undefined : polls.get(pollId)
      const row = indexRow(message, pollJson === undefined ? null : (JSON.parse(pollJson) as Poll))
      if (row !== null) insert.run(rowid, row.body, row.sender, row.facets)
    }
    const last = rows[rows.length - 1]
    if (last === undefined || rows.length < INDEX_BATCH) return
    after = last.rowid
  }
}

/** The version a database at the end of `migrations` is at. */
export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.length
}

/**
 * Brings the database up to the last migration. A database from a newer version of the app (its
 * version beyond ours) is refused rather than written to with a schema we do not know.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > migrations.length) throw new NewerStoreError(current, migrations.length)
  migrations.slice(current).forEach((migration, offset) => {
    const version = current + offset + 1
    db.transaction(() => {
      migration.up(db)
      db.pragma(`user_version = ${version}`)
    })()
  })
}

export class NewerStoreError extends Error {
  constructor(found: number, known: number) {
    super(`the local store is at version ${found}, newer than this app knows (${known})`)
    this.name = 'NewerStoreError'
  }
}
