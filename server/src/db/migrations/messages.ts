import type { Migration } from '../migrate.js'

/**
 * Messages and chats: the order of pins (MS8 / C5 list the latest pin first, and two pins
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
  },
  {
    // MS1, C2, G1 and G4 report how many messages a conversation holds. Counting them walks the
    // whole conversation (0.65 ms at 10 000 messages, which capped MS1 near 1 100 requests/s), so
    // the count is kept as messages come and go. Tombstones stay rows, so they stay counted.
    id: 'messages-002-counts',
    sql: `
      CREATE TABLE message_counts (
        conversation TEXT PRIMARY KEY,  -- 'g:<group id>' or 'c:<chat id>'
        n INTEGER NOT NULL
      );
      INSERT INTO message_counts (conversation, n)
        SELECT CASE WHEN group_id IS NOT NULL THEN 'g:' || group_id ELSE 'c:' || chat_id END, count(*)
        FROM messages GROUP BY 1;
      CREATE TRIGGER message_counts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_counts (conversation, n)
          VALUES (CASE WHEN NEW.group_id IS NOT NULL THEN 'g:' || NEW.group_id ELSE 'c:' || NEW.chat_id END, 1)
          ON CONFLICT (conversation) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER message_counts_delete AFTER DELETE ON messages BEGIN
        UPDATE message_counts SET n = n - 1
          WHERE conversation = CASE WHEN OLD.group_id IS NOT NULL THEN 'g:' || OLD.group_id ELSE 'c:' || OLD.chat_id END;
      END;
    `
  }
]
