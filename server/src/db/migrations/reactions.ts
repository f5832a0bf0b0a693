import type { Migration } from '../migrate.js'

/**
 * Issue 3, reactions (§12): one row per (message, user). `id` increases with every reaction made,
 * so it orders `user_ids` by reaction time even within one second (§18.16); a replacement is a
 * new row.
 */
export const reactionMigrations: readonly Migration[] = [
  {
    id: 'reactions-001-reactions',
    sql: `
      CREATE TABLE reactions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        reaction TEXT NOT NULL,                  -- canonical JSON of the reaction object
        liked_at_us INTEGER NOT NULL,
        UNIQUE (message_id, user_id)
      );
      CREATE INDEX reactions_user ON reactions (user_id, liked_at_us);
    `
  }
]
