import type { Clock } from '../clock.js'
import type { Extension, Message } from 'faye'
import { parseChannel, type PushAuthority } from './channels.js'
import { PUBLISHER, RECEIVER, type Delivery, type GatewayEngine, type PublishedMessage } from './engine.js'

/**
 * faye server extensions that make stock faye speak the contract (§14 says where stock faye differs):
 *
 * incoming — authorizes `/meta/subscribe` and publishes in the order of §14.2 (token, timestamp,
 * channel form, channel permission); reports unknown clients on publish (faye checks them only on
 * meta channels); records each connect's transport and sets how long faye holds it: the
 * gateway's own hold, or the client's shorter `advice.timeout` (§18.27).
 *
 * outgoing — gives each delivery its receiver's `clientId`; rewrites faye's
 * `401:<clientId>:Unknown client` to `401::Unknown client` with `advice: {reconnect: "handshake"}`;
 * trims publish replies to `{channel, id, successful}` (+ `error`/`advice` on failure).
 */

export const PUSH_TIMESTAMP_WINDOW_SECONDS = 300

const INVALID_TOKEN = '401::Invalid access token'
const INVALID_TIMESTAMP = '401::Invalid timestamp'
const INVALID_CHANNEL = '405::Invalid channel'
const FORBIDDEN_CHANNEL = '403::Forbidden channel'
const UNKNOWN_CLIENT = '401::Unknown client'
const UNSUPPORTED_CONNECTION_TYPE = '301::Connection types not supported'

/**
 * The transports of §14.1. faye knows more (eventsource, callback-polling, in-process), but the
 * gateway serves these two only: a connect of another type would be held without an end in sight.
 */
const CONNECTION_TYPES = ['long-polling', 'websocket']

interface Settings {
  engine: () => GatewayEngine
  authority: PushAuthority
  clock: Clock
  /** Hold time for long-polling connects: longer than the idle ping so the ping answers first. */
  longPollHoldMs: number
  /** Hold time for WebSocket connects (§14.1: answered within 30 s). */
  websocketHoldMs: number
}

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function extOf(message: Message): Record<string, unknown> {
  const ext = message.ext
  return isMessage(ext) ? ext : {}
}

/**
 * How long to hold a connect (§18.27): no longer than the client's `advice.timeout` (integer
 * ms ≥ 0), nor than the gateway's own hold. faye's client sends `{timeout: 0}` on a connect
 * batched with other messages (its subscribes after a handshake): the whole batch waits for the
 * connect's answer, so holding that connect would hold the subscribes back with it.
 */
function connectHold(advice: unknown, ownHoldMs: number): number {
  const asked = isMessage(advice) ? advice['timeout'] : undefined
  return typeof asked === 'number' && Number.isInteger(asked) && asked >= 0 ? Math.min(asked, ownHoldMs) : ownHoldMs
}

/** The meta channels of Bayeux; any other `/meta/…` channel is a publish to an invalid channel. */
const META_OPERATIONS = new Set(['/meta/handshake', '/meta/connect', '/meta/subscribe', '/meta/unsubscribe', '/meta/disconnect'])

export function createExtensions(settings: Settings): Extension {
  const { authority, clock } = settings
  /**
   * The §14.2 error each refused publish earned, by client and message id. faye answers some
   * refusals itself after the extensions ran (a wildcard or a `+` in the channel, a `/meta/…`
   * channel) and in its own words, so the reply is corrected on the way out: the first failing
   * row decides, worded as the contract words it.
   */
  const publishRefusals = new Map<string, string>()
  // Ids arrive as whatever JSON the client sent; JSON text names any of them without throwing.
  const publishKey = (message: Message): string => `${JSON.stringify(message.clientId) ?? ''}\u0000${JSON.stringify(message.id) ?? ''}`

  /** §14.2's rows in order; null when the subscription may go ahead. */
  function subscribeError(message: Message): { error: string } | { userId: number; tokenId: number; channel: string } {
    const ext = extOf(message)
    const caller = authority.callerOf(ext['access_token'])
    if (caller === null) return { error: INVALID_TOKEN }
    const timestamp = ext['timestamp']
    if (typeof timestamp !== 'number' || !Number.isInteger(timestamp) || Math.abs(timestamp - clock.now()) > PUSH_TIMESTAMP_WINDOW_SECONDS) {
      return { error: INVALID_TIMESTAMP }
    }
    const channel = message.subscription
    const form = parseChannel(channel)
    if (form === null || typeof channel !== 'string') return { error: INVALID_CHANNEL }
    if (!authority.mayUse(caller.userId, form)) return { error: FORBIDDEN_CHANNEL }
    return { ...caller, channel }
  }

  function incoming(message: Message, callback: (message: Message) => void): void {
    if (!isMessage(message)) return callback(message)
    const engine = settings.engine()
    const channel = message.channel

    if (channel === '/meta/handshake') {
      const offered: unknown = message.supportedConnectionTypes
      // faye writes the offered types into its refusal and throws on ones that are not strings.
      const types = Array.isArray(offered) ? offered.filter((type): type is string => typeof type === 'string') : []
      if (offered !== undefined && offered !== null) message.supportedConnectionTypes = types
      if (typeof message.version === 'string' && !message.version.startsWith('1.')) {
        message.error = `300:${message.version}:Version mismatch`
      } else if (offered !== undefined && offered !== null && !types.some((type) => CONNECTION_TYPES.includes(type))) {
        message.error = UNSUPPORTED_CONNECTION_TYPE
      }
    } else if (channel === '/meta/connect') {
      const type: unknown = message.connectionType
      if (type !== undefined && type !== null && !(typeof type === 'string' && CONNECTION_TYPES.includes(type))) {
        message.error = UNSUPPORTED_CONNECTION_TYPE
        // faye writes the type into its own refusal and throws on one that is not a string.
        message.connectionType = 'unsupported'
      } else if (engine.hasClient(message.clientId) && typeof message.connectionType === 'string') {
        engine.noteConnectionType(message.clientId, message.connectionType)
        const ownHold = message.connectionType === 'long-polling' ? settings.longPollHoldMs : settings.websocketHoldMs
        message.advice = { timeout: connectHold(message.advice, ownHold) }
      } else {
        delete message.advice
      }
    } else if (channel === '/meta/subscribe') {
      if (engine.hasClient(message.clientId)) {
        const outcome = subscribeError(message)
        if ('error' in outcome) {
          message.error = outcome.error
          // faye replaces any error with "missing parameter" when `subscription` is falsy.
          if (!message.subscription) message.subscription = []
        } else {
          engine.grant(message.clientId, outcome.channel, { userId: outcome.userId, tokenId: outcome.tokenId })
        }
      }
    } else if (typeof channel === 'string' && !META_OPERATIONS.has(channel)) {
      const published = message as PublishedMessage
      const caller = authority.callerOf(extOf(message)['access_token'])
      const form = parseChannel(channel)
      if (!engine.hasClient(message.clientId)) message.error = UNKNOWN_CLIENT
      else if (caller === null) message.error = INVALID_TOKEN
      else if (form === null) message.error = INVALID_CHANNEL
      else if (!authority.mayUse(caller.userId, form)) message.error = FORBIDDEN_CHANNEL
      else published[PUBLISHER] = { clientId: message.clientId, userId: caller.userId }
      if (typeof message.error === 'string') publishRefusals.set(publishKey(message), message.error)
      // A publish without data is dropped silently rather than refused (§14.3).
      if (message.data === undefined) message.data = null
    }
    callback(message)
  }

  function outgoing(message: Message, callback: (message: Message) => void): void {
    if (!isMessage(message)) return callback(message)
    const delivery = message as Delivery
    const receiver = delivery[RECEIVER]
    if (receiver !== undefined) {
      delivery.clientId = receiver
      Reflect.deleteProperty(delivery, RECEIVER)
      return callback(delivery)
    }
    if (message.channel === '/meta/handshake') message.supportedConnectionTypes = CONNECTION_TYPES
    // faye words its own refusal of a type it does not know with the type in the middle.
    if (typeof message.error === 'string' && message.error.startsWith('301:')) message.error = UNSUPPORTED_CONNECTION_TYPE
    const refusal = publishRefusals.get(publishKey(message))
    const isPublishReply = refusal !== undefined || (typeof message.channel === 'string' && !message.channel.startsWith('/meta/'))
    if (refusal !== undefined) {
      publishRefusals.delete(publishKey(message))
      message.error = refusal
      message.successful = false
    }
    if (typeof message.error === 'string' && /^(401:[^:]*:Unknown client|402:clientId:)/.test(message.error)) {
      message.error = UNKNOWN_CLIENT
      message.advice = { reconnect: 'handshake' }
    }
    if (isPublishReply && 'successful' in message) {
      delete message.clientId
      if (message.error === undefined) delete message.advice
    }
    callback(message)
  }

  return { incoming, outgoing }
}
