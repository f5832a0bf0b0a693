import { z } from 'zod'
import type { Core } from '../core.js'
import { Mfa } from '../domain/mfa.js'
import { badRequest } from '../http/errors.js'
import { accepted, created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody } from '../http/validation.js'

/**
 * M1–M5 (§3, §3.3). One path carries M2–M5, told apart by the body: `channel` without
 * `verification` is M2, with it M3; `mfa.status` `enable` is M4, `disable` M5. Both `mfa` and
 * `channel`, neither, or another status → 400. A `null` field counts as absent (§2.1).
 */

const envelopeBody = z.object({
  mfa: z.unknown().optional(),
  channel: z.unknown().optional(),
  verification: z.unknown().optional()
})
const mfaField = z.object({ status: z.enum(['enable', 'disable']) })
const channelField = z.object({ method: z.literal('phone_number') })
const verificationField = z.object({ code: z.string() })

function parseField<S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) {
    throw badRequest(result.error.issues.map((issue) => [name, ...issue.path.map(String)].join('.') + `: ${issue.message}`))
  }
  return result.data
}

export function registerMfaRoutes(routes: Routes, core: Core): void {
  const mfa = core.use(Mfa)

  routes.v3.post('/user/mfa/backup', (ctx) => ok({ mfa: { backup_code: mfa.newBackupCode(ctx.caller.userId) } }))

  routes.v3.post('/user/mfa', (ctx) => {
    const body = parseBody(envelopeBody, ctx.body)
    const hasMfa = body.mfa !== undefined && body.mfa !== null
    const hasChannel = body.channel !== undefined && body.channel !== null
    if (hasMfa === hasChannel) throw badRequest('Send exactly one of mfa and channel')

    if (hasMfa) {
      const { status } = parseField(mfaField, body.mfa, 'mfa')
      if (status === 'enable') return ok(mfa.enable(ctx.caller))
      mfa.disable(ctx.caller.userId)
      return ok({})
    }

    parseField(channelField, body.channel, 'channel')
    if (body.verification === undefined || body.verification === null) {
      return accepted({ verification: mfa.startChannelCheck(ctx.caller.userId) })
    }
    const { code } = parseField(verificationField, body.verification, 'verification')
    return created(mfa.confirmChannel(ctx.caller.userId, code))
  })
}
