import type { FastifyInstance } from 'fastify'

/**
 * Request body parsing that never fails the request by itself. §2.5 puts the token (401) and
 * attestation (403) checks before syntax (400), but fastify parses the body before any handler
 * runs; so the parsers record what was wrong and the route's validation reports it as 400 at the
 * right moment.
 */

/** A JSON body that could not be used, and why. */
export class UnusableBody {
  constructor(readonly reason: string) {}
}

/** A non-JSON body, kept as bytes for the few operations that take raw bytes (image upload). */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer
  ) {}
}

/** JSON strings must be well-formed Unicode without NUL (§18.3 allows refusing them with 400). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const isOdd = (value: string): boolean => value.includes('\u0000') || LONE_SURROGATE.test(value)

export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return undefined
  let odd = false
  let value: unknown
  try {
    value = JSON.parse(text, (key, item: unknown) => {
      if (isOdd(key) || (typeof item === 'string' && isOdd(item))) odd = true
      return item
    })
  } catch {
    return new UnusableBody('Request body is not valid JSON')
  }
  if (odd) return new UnusableBody('Strings must not contain NUL or unpaired surrogates')
  return value
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseJsonText(typeof body === 'string' ? body : body.toString('utf8')))
  })
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body)
    done(null, new RawBody(String(request.headers['content-type'] ?? ''), bytes))
  })
}
