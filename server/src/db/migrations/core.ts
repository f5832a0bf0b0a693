import type { Migration } from '../migrate.js'

/**
 * The first tables: accounts and their credentials, verifications, the SMS outbox, groups and
 * memberships, messages, chats, blocks and images. Ids start at distinct bases (users 2000000x,
 * groups 1000000x, memberships 3000000x) so that a stray id of the wrong kind fails loudly instead
 * of matching something.
 */
export const coreMigrations: readonly Migration[] = [
  {
    id: 'core-001-accounts',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        email_key TEXT NOT NULL UNIQUE,          -- ASCII-lowercased e-mail (§18.18)
        phone_number TEXT NOT NULL,              -- "+<cc> <number>"
        phone_digits TEXT NOT NULL UNIQUE,       -- digits only, for matching (§2.1)
        password_hash TEXT NOT NULL,
        image_url TEXT,
        bio TEXT NOT NULL DEFAULT '',
        share_token TEXT NOT NULL,
        mfa_enabled INTEGER NOT NULL DEFAULT 0,
        mfa_channel_created_at INTEGER,
        backup_code_hash TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      INSERT INTO sqlite_sequence (name, seq) VALUES ('users', 20000000);

      CREATE TABLE known_devices (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        device_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, device_id)
      );

      CREATE TABLE access_tokens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,         -- SHA-256 hex; the token itself is never stored
        app_id TEXT NOT NULL,
        created_at_us INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX access_tokens_user ON access_tokens (user_id);

      CREATE TABLE login_failures (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        at INTEGER NOT NULL
      );
      CREATE INDEX login_failures_user ON login_failures (user_id, at);

      CREATE TABLE verifications (
        code TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose TEXT NOT NULL CHECK (purpose IN ('login', 'channel')),
        long_pin TEXT NOT NULL,
        pin_hash TEXT,                           -- SHA-256 of the current SMS PIN, if one was sent
        remaining_attempts INTEGER NOT NULL DEFAULT 5,
        verified_at INTEGER,
        consumed_at INTEGER,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX verifications_user ON verifications (user_id);

      CREATE TABLE sms_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        to_number TEXT NOT NULL,
        to_digits TEXT NOT NULL,
        text TEXT NOT NULL,
        sent_at INTEGER NOT NULL
      );

      CREATE TABLE blocks (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        blocked_user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, blocked_user_id)
      );

      CREATE TABLE images (
        id TEXT PRIMARY KEY,                     -- 32 lowercase hex
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        content_type TEXT NOT NULL,
        bytes BLOB NOT NULL,
        created_at INTEGER NOT NULL
      );
    `
  },
  {
    id: 'core-002-conversations',
    sql: `
      CREATE TABLE groups (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        image_url TEXT,
        type TEXT NOT NULL DEFAULT 'private' CHECK (type IN ('private', 'closed', 'announcement')),
        creator_user_id INTEGER NOT NULL REFERENCES users (id),
        share_token TEXT,
        office_mode INTEGER NOT NULL DEFAULT 0,
        requires_approval INTEGER NOT NULL DEFAULT 0,
        show_join_question INTEGER NOT NULL DEFAULT 0,
        join_question_text TEXT NOT NULL DEFAULT 'Why do you want to join this group?',
        like_icon TEXT,                          -- JSON reaction object, or NULL
        visibility TEXT NOT NULL DEFAULT 'hidden',
        message_deletion_mode TEXT NOT NULL DEFAULT '["admin","sender"]',
        theme_name TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      INSERT INTO sqlite_sequence (name, seq) VALUES ('groups', 10000000);

      -- One row per (group, user) for the whole history: active, exited, removed, exited_removed,
      -- requested_pending or denied. The owner is groups.creator_user_id; role holds admin rights.
      CREATE TABLE memberships (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        group_id INTEGER NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        nickname TEXT NOT NULL,
        role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
        state TEXT NOT NULL,
        muted_until INTEGER,
        created_at INTEGER NOT NULL,
        state_changed_at INTEGER NOT NULL,
        UNIQUE (group_id, user_id)
      );
      INSERT INTO sqlite_sequence (name, seq) VALUES ('memberships', 30000000);
      CREATE INDEX memberships_user ON memberships (user_id, state);

      CREATE TABLE chats (
        id TEXT PRIMARY KEY,                     -- "<lo>+<hi>"
        user_lo INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        user_hi INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX chats_lo ON chats (user_lo);
      CREATE INDEX chats_hi ON chats (user_hi);

      -- Ids are 18 decimal digits of equal length, so TEXT order is numeric order.
      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        group_id INTEGER REFERENCES groups (id) ON DELETE CASCADE,
        chat_id TEXT REFERENCES chats (id) ON DELETE CASCADE,
        recipient_id INTEGER,
        sender_id TEXT NOT NULL,                 -- a user id, or 'system'
        sender_type TEXT NOT NULL CHECK (sender_type IN ('user', 'system')),
        name TEXT NOT NULL,
        avatar_url TEXT,
        text TEXT NOT NULL DEFAULT '',
        attachments TEXT NOT NULL DEFAULT '[]',  -- JSON array
        source_guid TEXT NOT NULL,
        event TEXT,                              -- JSON {type, data} for system and poll messages
        created_at INTEGER NOT NULL,
        updated_at INTEGER,
        deleted_at_us INTEGER,
        deletion_actor TEXT,
        pinned_at INTEGER,
        pinned_by TEXT,
        CHECK ((group_id IS NULL) <> (chat_id IS NULL))
      );
      CREATE INDEX messages_group ON messages (group_id, id);
      CREATE INDEX messages_chat ON messages (chat_id, id);
      CREATE INDEX messages_guid ON messages (source_guid, sender_id);
    `
  }
]
