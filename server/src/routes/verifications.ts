import { z } from 'zod'
import type { Core } from '../core.js'
import { Verifications } from '../domain/verifications.js'
import { ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody } from '../http/validation.js'

/** V1–V3 (§3.2): bare, no token, under {base_url}. */

const initiateBody = z.object({ verification: z.object({ method: z.literal('sms') }) })
const confirmBody = z.object({ verification: z.object({ pin: z.string() }) })

export function registerVerificationRoutes(routes: Routes, core: Core): void {
  const options = { auth: 'none', bare: true } as const

  routes.v3.get('/verifications/:mfa_id', options, (ctx) => {
    return ok({ verification: core.use(Verifications).show(ctx.params['mfa_id'] ?? '') })
  })

  routes.v3.post('/verifications/:mfa_id/initiate', options, (ctx) => {
    parseBody(initiateBody, ctx.body)
    return ok(core.use(Verifications).initiate(ctx.params['mfa_id'] ?? ''))
  })

  routes.v3.post('/verifications/:mfa_id/confirm', options, (ctx) => {
    const body = parseBody(confirmBody, ctx.body)
    return ok(core.use(Verifications).confirm(ctx.params['mfa_id'] ?? '', body.verification.pin))
  })
}
