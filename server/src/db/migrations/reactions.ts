import type { Migration } from '../migrate.js'

/**
 * Reactions (§12): one row per (message, user). `id` increases with every reaction made,
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
  },
  {
    // Where each entry stands (§12 "ordered by first appearance"): the id of the reaction that made
    // the entry appear. An entry keeps its place while it has users; once empty it is dropped, and
    // a later reaction of that kind appears anew at the end.
    id: 'reactions-002-entry-order',
    sql: `
      CREATE TABLE reaction_entries (
        message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        reaction TEXT NOT NULL,
        first_reaction_id INTEGER NOT NULL,
        PRIMARY KEY (message_id, reaction)
      );
    `
  }
]
