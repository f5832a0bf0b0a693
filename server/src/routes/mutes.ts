import { z } from 'zod'
import type { Core } from '../core.js'
import { Groups } from '../domain/groups.js'
import { Roster } from '../domain/roster.js'
import { ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody } from '../http/validation.js'

/**
 * MU1–MU4 (§8): MU1/MU2 on v2 (bare), MU3/MU4 on v3 (enveloped). No subtopics exist, so the
 * `_all` variants do the same as the plain ones.
 */

/** 1–525 600 minutes; `null` or absent = indefinite. */
const muteBody = z.object({ duration: z.int().min(1).max(525_600).nullish() })

export function registerMuteRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)
  const roster = core.use(Roster)

  for (const [host, suffix] of [['v2', ''], ['v3', '_all']] as const) {
    routes[host].post(`/groups/:group_id/memberships/mute${suffix}`, (ctx) => {
      const body = parseBody(muteBody, ctx.body)
      const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
      return ok({ membership: roster.mute(visible, body.duration ?? null) })
    })
    routes[host].post(`/groups/:group_id/memberships/unmute${suffix}`, (ctx) => {
      const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
      return ok({ membership: roster.unmute(visible) })
    })
  }
}
