import type { Migration } from '../migrate.js'

/**
 * Issue 3, messages and chats: the order of pins (MS8 / C5 list the latest pin first, and two pins
 * can fall in one second), and an index for the pinned lists.
 */
export const messageMigrations: readonly Migration[] = [
  {
    id: 'messages-001-pins',
    sql: `
      ALTER TABLE messages ADD COLUMN pin_seq INTEGER;  -- increasing per pin, service-wide
      CREATE INDEX messages_group_pins ON messages (group_id, pin_seq) WHERE pin_seq IS NOT NULL;
      CREATE INDEX messages_chat_pins ON messages (chat_id, pin_seq) WHERE pin_seq IS NOT NULL;
    `
  }
]
