import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isDevPath } from './dev-guard.js'
import { HttpError } from './errors.js'
import { failureBody, JSON_CONTENT_TYPE } from './replies.js'

/**
 * Every failure leaves as the contract's failure body with `meta.code` = the status (§2.4):
 * HttpErrors from handlers, fastify's own 4xx (body too large, bad media type), unknown paths and
 * methods (404). Anything else is a bug: it is logged and answered with a 500 failure body.
 */
export function registerFailureHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler(async (request, reply) => notFound(request, reply))

  app.setErrorHandler(async (error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.status)
        .type(JSON_CONTENT_TYPE)
        .send(JSON.stringify(error.body ?? failureBody(error.status, error.errors)))
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500
    // fastify reads the body even on unknown paths, and refuses a Content-Type it cannot parse or a
    // body over the limit there too: such a path names no operation, so it stays 404 (§2.5 step 1).
    if (request.is404 && status >= 400 && status < 500) return notFound(request, reply)
    // fastify refuses a Content-Type header it cannot parse (`;;;`) with 415; the service answers
    // every non-JSON body with 400 (README, "Decisions").
    if ('code' in error && error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(400).type(JSON_CONTENT_TYPE).send(JSON.stringify(failureBody(400, ['Content-Type must be application/json'])))
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).type(JSON_CONTENT_TYPE).send(JSON.stringify(failureBody(status, [error.message])))
    }
    request.log.error({ err: error }, 'unexpected error')
    console.error(error)
    return reply.code(500).type(JSON_CONTENT_TYPE).send(JSON.stringify(failureBody(500, ['Internal error'])))
  })
}

function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .type(JSON_CONTENT_TYPE)
    .send(JSON.stringify(failureBody(404, [`No operation ${request.method} ${request.url.split('?')[0]}`])))
}

/**
 * fastify's `frameworkErrors`: a path it cannot decode (`/v3/groups/%`) or whose parameter is too
 * long names no operation, so it is 404 like any unknown path (§2.5 step 1), with the failure body
 * and the CORS header instead of fastify's own `{error, code, message}`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No CORS header under /dev (§18.29).
  if (!isDevPath(request.url)) void reply.header('access-control-allow-origin', '*')
  void reply
    .code(404)
    .type(JSON_CONTENT_TYPE)
    .send(JSON.stringify(failureBody(404, [`No operation ${request.method} at this path (${error.code})`])))
}
