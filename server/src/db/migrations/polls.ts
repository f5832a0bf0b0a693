import type { Migration } from '../migrate.js'

/**
 * Polls (§13). A poll is past once `expiration` ≤ now (PL5 sets `expiration` = now);
 * `finished_message_id` records the one `poll.finished` system message, so it is posted once
 * however the poll ends, across restarts too.
 */
export const pollMigrations: readonly Migration[] = [
  {
    id: 'polls-001-polls',
    sql: `
      CREATE TABLE polls (
        id TEXT PRIMARY KEY,                     -- 16 digits, increasing with creation
        group_id INTEGER NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        owner_id INTEGER NOT NULL,
        subject TEXT NOT NULL,
        options TEXT NOT NULL,                   -- JSON array of titles; option ids are "1".."n"
        type TEXT NOT NULL CHECK (type IN ('single', 'multi')),
        visibility TEXT NOT NULL CHECK (visibility IN ('anonymous', 'public')),
        message_id TEXT,
        created_at INTEGER NOT NULL,
        last_modified INTEGER NOT NULL,
        expiration INTEGER NOT NULL,
        finished_message_id TEXT
      );
      CREATE INDEX polls_group ON polls (group_id, id);
      CREATE INDEX polls_unfinished ON polls (expiration) WHERE finished_message_id IS NULL;

      CREATE TABLE poll_votes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,    -- vote order, for voter_ids
        poll_id TEXT NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        option_id TEXT NOT NULL,
        voted_at INTEGER NOT NULL,
        UNIQUE (poll_id, user_id, option_id)
      );
      CREATE INDEX poll_votes_poll ON poll_votes (poll_id, user_id);
    `
  }
]
