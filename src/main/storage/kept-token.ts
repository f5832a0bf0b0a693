// What a token vault keeps: the token together with the deployment that issued it, as one piece of
// text, so whatever protects the one (the OS keychain, a file only the user can read) protects the
// other, and neither can be changed without the other.
import { z } from 'zod'
import type { IssuedToken } from '@shared/token-issuer'

const keptTokenSchema = z.object({
  token: z.string().min(1),
  issuer: z.object({
    baseUrl: z.string(),
    v2Url: z.string(),
    v4Url: z.string(),
    imageServiceUrl: z.string(),
    pushUrl: z.string(),
    pushWsUrl: z.string(),
    appId: z.string()
  })
})

export function encodeKeptToken(issued: IssuedToken): string {
  return JSON.stringify({ token: issued.token, issuer: issued.issuer })
}

/**
 * The token and its issuer, or null for anything else: a bare token kept by an older version says
 * nothing of where it came from, so it can be sent nowhere safely.
 */
export function decodeKeptToken(text: string): IssuedToken | null {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = keptTokenSchema.safeParse(json)
  return parsed.success ? parsed.data : null
}
