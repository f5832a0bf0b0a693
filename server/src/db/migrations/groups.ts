import type { Migration } from '../migrate.js'

/**
 * Groups and members (§7–§9): destroyed groups, join requests with their question and
 * answer, and MB2 add results.
 *
 * - A destroyed group (G7) keeps its row with `destroyed_at` set, so rows of other areas that point
 *   at it (messages, polls, reactions) never block the destroy; its memberships are deleted, so it
 *   leaves every per-user listing, and `Groups.find` no longer sees it.
 * - `join_question` / `join_answer` are the JSON `question` and `answer` of a pending request's
 *   `reason` (§15.4), fixed when the request is made.
 * - `add_results` holds MB2 results (§9) for an hour: ready at `ready_at_ms` (service clock),
 *   `members` is the JSON array of the added members as MB3 shows them, in request order.
 */
export const groupsMigrations: readonly Migration[] = [
  {
    id: 'groups-001-destroy-requests-add-results',
    sql: `
      ALTER TABLE groups ADD COLUMN destroyed_at INTEGER;
      ALTER TABLE memberships ADD COLUMN join_question TEXT;
      ALTER TABLE memberships ADD COLUMN join_answer TEXT;
      CREATE INDEX memberships_group_state ON memberships (group_id, state);

      CREATE TABLE add_results (
        id TEXT PRIMARY KEY,                     -- lowercase UUID
        group_id INTEGER NOT NULL,
        adder_user_id INTEGER NOT NULL,
        created_at_ms INTEGER NOT NULL,
        ready_at_ms INTEGER NOT NULL,
        members TEXT NOT NULL
      );
    `
  },
  {
    // A former member who asks to join again through a share link keeps what leaving made them:
    // while the request is pending or denied they are still `exited` to G2, G3 and G9 (§7: rejoin
    // works from exited and ignores requires_approval; §18.8 treats as never-a-member only those
    // whose whole history is requests). One row per group and user holds both, so this column
    // remembers the exit across the request. Cleared when the membership becomes active.
    id: 'groups-002-exited-while-requesting',
    sql: `ALTER TABLE memberships ADD COLUMN exited_before_request INTEGER NOT NULL DEFAULT 0;`
  }
]
