import type { Migration } from '../migrate.js'
import { coreMigrations } from './core.js'
import { groupsMigrations } from './groups.js'
import { loginMigrations } from './login.js'
import { messageMigrations } from './messages.js'
import { pollMigrations } from './polls.js'
import { reactionMigrations } from './reactions.js'
import { relationshipMigrations } from './relationships.js'

/**
 * Every migration of the service, in order. An area adds its own file next to `core.ts` and one
 * spread line here; ids keep parallel additions from colliding (see `migrate.ts`).
 */
export const migrations: readonly Migration[] = [
  ...coreMigrations,
  ...groupsMigrations,
  ...messageMigrations,
  ...reactionMigrations,
  ...pollMigrations,
  ...relationshipMigrations,
  ...loginMigrations
]
