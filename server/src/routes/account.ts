import type { Core } from '../core.js'
import type { Routes } from '../http/router.js'
import { registerBlockRoutes } from './blocks.js'
import { registerMfaRoutes } from './mfa.js'
import { registerRelationshipRoutes } from './relationships.js'

/**
 * The account-level areas beyond login, tokens and users: MFA (M1–M5), blocks (B1–B5) and
 * relationships (R1–R5), registered together so `routes/index.ts` needs one entry.
 */
export function registerAccountRoutes(routes: Routes, core: Core): void {
  registerMfaRoutes(routes, core)
  registerBlockRoutes(routes, core)
  registerRelationshipRoutes(routes, core)
}
