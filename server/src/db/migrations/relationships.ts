import type { Migration } from '../migrate.js'

/**
 * Relationships (contacts, §6) and their import batches. Blocks, MFA state and backup codes live
 * in the core tables already (`blocks`, `users.mfa_*`, `users.backup_code_hash`).
 */
export const relationshipMigrations: readonly Migration[] = [
  {
    id: 'relationships-001-contacts',
    sql: `
      -- The owner's contact book. Times in Unix microseconds; per owner they strictly increase
      -- (a clash is bumped by 1 µs, §6), which the unique index guarantees.
      CREATE TABLE relationships (
        owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        reason INTEGER NOT NULL CHECK (reason IN (1, 2)),
        created_at_us INTEGER NOT NULL,
        updated_at_us INTEGER NOT NULL,
        PRIMARY KEY (owner_id, user_id)
      );
      CREATE UNIQUE INDEX relationships_owner_time ON relationships (owner_id, created_at_us);

      -- The latest creation time ever given per owner, so a time stays unique and increasing even
      -- after the newest relationship is deleted.
      CREATE TABLE relationship_clocks (
        owner_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        last_created_us INTEGER NOT NULL
      );

      CREATE TABLE relationship_batches (
        id TEXT PRIMARY KEY,                     -- lowercase UUID v4
        owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL
      );

      -- The matched entries of a batch, in request order.
      CREATE TABLE relationship_batch_entries (
        batch_id TEXT NOT NULL REFERENCES relationship_batches (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        guid TEXT NOT NULL,
        PRIMARY KEY (batch_id, position)
      );
    `
  }
]
