import type { Core } from '../core.js'
import type { Routes } from '../http/router.js'
import { registerAccountRoutes } from './account.js'
import { registerChatRoutes } from './chats.js'
import { registerDevRoutes } from './dev.js'
import { registerGroupRoutes } from './groups.js'
import { registerImageRoutes } from './images.js'
import { registerLoginRoutes } from './login.js'
import { registerMemberRoutes } from './members.js'
import { registerMessageRoutes } from './messages.js'
import { registerMuteRoutes } from './mutes.js'
import { registerPollRoutes } from './polls.js'
import { registerReactionRoutes } from './reactions.js'
import { registerTokenRoutes } from './tokens.js'
import { registerUserRoutes } from './users.js'
import { registerVerificationRoutes } from './verifications.js'

/**
 * Every area's routes. An area adds `routes/<area>.ts` exporting `register…Routes(routes, core)`
 * and one line here.
 */
const areas: ((routes: Routes, core: Core) => void)[] = [
  registerLoginRoutes,
  registerVerificationRoutes,
  registerTokenRoutes,
  registerUserRoutes,
  registerAccountRoutes,
  registerImageRoutes,
  registerGroupRoutes,
  registerMemberRoutes,
  registerMuteRoutes,
  registerMessageRoutes,
  registerChatRoutes,
  registerReactionRoutes,
  registerPollRoutes
]

export function registerRoutes(routes: Routes, core: Core): void {
  for (const register of areas) register(routes, core)
  // §1: without --dev, /dev/* does not exist (404).
  if (core.config.dev) registerDevRoutes(routes, core)
}
