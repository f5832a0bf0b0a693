// The floor: a bare faye client in the driver's process, on WebSocket, subscribed to a user's
// channel with a token of that user's, authenticating its subscribe as the app does (the token and
// a timestamp in `ext`, see src/main/push/push-connection.ts). It receives the same publishes as
// the app and notes when each bench text arrived.
//
// faye's client handshakes only over a polling transport (its handshake insists on one of
// long-polling, callback-polling or in-process), then moves to WebSocket: long-polling stays
// enabled for that one request, every other transport is disabled. The connection types of its
// `/meta/connect`s, printed by the bench, show which transport carried the deliveries.
import faye from 'faye'
import type { Client, Message } from 'faye'
import { benchTextOfPush } from './probes/recorder'
import { epochNow } from './probes/records'

/** Every transport faye's Node client knows but WebSocket and the long-polling its handshake needs. */
const OTHER_TRANSPORTS = ['callback-polling', 'cross-origin-long-polling', 'eventsource', 'in-process']

export class RawFayeClient {
  readonly #client: Client
  readonly #received = new Map<string, number>()
  readonly #waiters = new Map<string, (at: number) => void>()
  /** The connection types of the client's `/meta/connect`s: proof of which transport carried it. */
  readonly connectionTypes = new Set<string>()

  private constructor(client: Client) {
    this.#client = client
  }

  static async subscribe(origin: string, channel: string, token: string): Promise<RawFayeClient> {
    const client = new faye.Client(`${origin}/faye`)
    for (const transport of OTHER_TRANSPORTS) client.disable(transport)
    const raw = new RawFayeClient(client)
    client.addExtension({
      outgoing: (message: Message, callback: (message: Message | null) => void) => {
        if (message.channel === '/meta/subscribe') message.ext = { ...message.ext, access_token: token, timestamp: Math.floor(Date.now() / 1000) }
        if (message.channel === '/meta/connect' && typeof message.connectionType === 'string') raw.connectionTypes.add(message.connectionType)
        callback(message)
      }
    })
    await client.subscribe(channel, (data) => raw.#receive(data))
    return raw
  }

  #receive(data: unknown): void {
    const at = epochNow()
    const text = benchTextOfPush(data)
    if (text === null || this.#received.has(text)) return
    this.#received.set(text, at)
    this.#waiters.get(text)?.(at)
    this.#waiters.delete(text)
  }

  /** Resolves with the driver time at which `text` arrived. */
  waitFor(text: string): Promise<number> {
    const at = this.#received.get(text)
    if (at !== undefined) return Promise.resolve(at)
    return new Promise((resolve) => this.#waiters.set(text, resolve))
  }

  receivedAt(text: string): number | undefined {
    return this.#received.get(text)
  }

  async close(): Promise<void> {
    await this.#client.disconnect()
  }
}
