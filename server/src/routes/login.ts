import { z } from 'zod'
import type { Core } from '../core.js'
import { Login } from '../domain/login.js'
import { accepted, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody } from '../http/validation.js'

/** L1: POST {v2_url}/access_tokens (§3.1). */

const loginBody = z.object({
  app_id: z.string(),
  grant_type: z.literal('password'),
  username: z.string(),
  password: z.string(),
  device_id: z.string().nullish(),
  verification: z.object({ code: z.string().nullish() }).nullish()
})

export function registerLoginRoutes(routes: Routes, core: Core): void {
  routes.v2.post('/access_tokens', { auth: 'none' }, async (ctx) => {
    const body = parseBody(loginBody, ctx.body)
    const outcome = await core.use(Login).signIn({
      appId: body.app_id,
      username: body.username,
      password: body.password,
      deviceId: body.device_id ?? null,
      verificationCode: body.verification?.code ?? null
    })
    return outcome.kind === 'token' ? ok(outcome.token) : accepted({ verification: outcome.verification })
  })
}
