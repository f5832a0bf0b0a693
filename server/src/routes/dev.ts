import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { PHONE_FORMAT } from '../domain/phones.js'
import { SmsOutbox } from '../domain/sms.js'
import { Verifications } from '../domain/verifications.js'
import { stateTables } from '../db/migrate.js'
import { badRequest, conflict } from '../http/errors.js'
import { created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery, text } from '../http/validation.js'

/** §17 development endpoints, registered only with `--dev`: no token, bare. */

const smsBody = z.object({ from: z.string(), to: z.string(), text: z.string() })

const userBody = z.object({
  name: text(1, 64),
  email: z.string().includes('@', { message: 'must be an e-mail address' }),
  phone_number: z.string().regex(PHONE_FORMAT, 'must look like "+<cc> <number>"'),
  password: z.string().min(1)
})

const clockBody = z.object({ advance_seconds: z.int().min(0) })

/**
 * 2200-01-01: message ids are creation milliseconds × 10⁵ in 18 digits, which holds until 2286, and
 * dates stop being representable long before 2^53 seconds. A jump past this is refused (400).
 */
const LATEST_CLOCK_SECONDS = 7_258_118_400

/** Kept across `/dev/reset`: message ids must keep increasing even then. */
const KEPT_META_KEYS = ['last_message_id']

export function registerDevRoutes(routes: Routes, core: Core): void {
  const options = { auth: 'none' } as const

  routes.dev.get('/outbox', options, (ctx) => {
    const query = parseQuery(z.object({ to: z.string().optional() }), ctx.query)
    return ok(core.use(SmsOutbox).list(query.to))
  })

  routes.dev.post('/sms', options, (ctx) => {
    const body = parseBody(smsBody, ctx.body)
    return ok({ verified: core.use(Verifications).verifyByText(body.from, body.to, body.text) })
  })

  routes.dev.post('/users', options, async (ctx) => {
    const body = parseBody(userBody, ctx.body)
    const accounts = core.use(Accounts)
    const clash = accounts.conflict(body.email, body.phone_number)
    if (clash !== null) throw conflict(`${clash === 'email' ? 'E-mail' : 'Phone number'} already in use`)
    const account = await accounts.create({
      name: body.name,
      email: body.email,
      phoneNumber: body.phone_number,
      password: body.password
    })
    return created({ user: accounts.selfUser(account) })
  })

  routes.dev.post('/clock', options, (ctx) => {
    const body = parseBody(clockBody, ctx.body)
    if (core.clock.now() + body.advance_seconds > LATEST_CLOCK_SECONDS) {
      throw badRequest('advance_seconds: the service clock cannot go past 2200-01-01')
    }
    core.clock.advance(body.advance_seconds)
    return ok({ now: core.clock.now() })
  })

  routes.dev.post('/reset', options, () => {
    resetState(core)
    return ok({})
  })
}

/** Empties every state table (areas added later included) and resets the clock offset. */
export function resetState(core: Core): void {
  const db = core.db
  const kept = KEPT_META_KEYS.map((key) => [key, core.meta.get(key)] as const)
  db.pragma('foreign_keys = OFF')
  try {
    core.transaction(() => {
      for (const table of stateTables(db)) db.prepare(`DELETE FROM "${table}"`).run()
      for (const [key, value] of kept) if (value !== undefined) core.meta.set(key, value)
    })
  } finally {
    db.pragma('foreign_keys = ON')
  }
  core.clock.reset()
}
