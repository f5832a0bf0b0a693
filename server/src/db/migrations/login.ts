import type { Migration } from '../migrate.js'

/**
 * L1's failed password checks (§3.1, §18.28), counted per username as sent as well as per account:
 * an unknown username reaches the limit like a known one. A check in progress holds a row too
 * (removed when the password turns out right), so simultaneous requests cannot all slip under the
 * limit. The username is stored as a digest, so a failed login keeps a fixed size however long
 * the username sent was.
 */
export const loginMigrations: readonly Migration[] = [
  {
    id: 'login-001-failures-by-username',
    sql: `
      CREATE TABLE login_failures_by_username (
        id INTEGER PRIMARY KEY,
        username_hash TEXT,                      -- SHA-256 of the ASCII-lowercased username; NULL on rows from before this migration
        user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,  -- the account it named, if any
        at INTEGER NOT NULL
      );
      INSERT INTO login_failures_by_username (user_id, at) SELECT user_id, at FROM login_failures;
      DROP TABLE login_failures;
      ALTER TABLE login_failures_by_username RENAME TO login_failures;
      CREATE INDEX login_failures_username ON login_failures (username_hash, at);
      CREATE INDEX login_failures_user ON login_failures (user_id, at);
      CREATE INDEX login_failures_at ON login_failures (at);
    `
  }
]
