import { channel as diagnosticsChannel } from 'node:diagnostics_channel'
import type { Clock } from '../clock.js'
import { userChannel } from './channels.js'

/**
 * How domain code pushes events (§14.4): `data` = `{type, alert, subject, received_at}` with
 * `received_at` in service-clock milliseconds. Delivery is synchronous and best-effort: clients
 * that are not connected get it on their next connect, unsubscribed channels get nothing.
 */
export interface PushEvent {
  type: string
  alert: string
  subject: unknown
}

export type ChannelSink = (channel: string, data: unknown) => void

/**
 * `{channel, data}` of every event published, on a `node:diagnostics_channel` of this name:
 * `npm run bench` times a push from here to the page. Nothing is published without a subscriber.
 */
export const PUSH_PUBLISHED_CHANNEL = 'parley:service:push-published'
const published = diagnosticsChannel(PUSH_PUBLISHED_CHANNEL)

export class PushPublisher {
  readonly #sink: ChannelSink
  readonly #clock: Clock

  constructor(sink: ChannelSink, clock: Clock) {
    this.#sink = sink
    this.#clock = clock
  }

  /** One event on one channel (`/group/:id`, `/direct_message/:a_b`, `/user/:id`). */
  toChannel(channel: string, event: PushEvent): void {
    const data = { type: event.type, alert: event.alert, subject: event.subject, received_at: this.#clock.nowMs() }
    if (published.hasSubscribers) published.publish({ channel, data })
    this.#sink(channel, data)
  }

  /** The same event to each user's `/user/:id` channel, once per distinct user. */
  toUsers(userIds: Iterable<number | string>, event: PushEvent): void {
    for (const id of new Set([...userIds].map(String))) this.toChannel(userChannel(id), event)
  }
}
