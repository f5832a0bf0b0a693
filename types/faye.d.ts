/**
 * Types for faye 1.4.3, which publishes none. Shared by the local service (NodeAdapter, server
 * extensions, custom engine) and the desktop client (Client). faye is CommonJS whose exports are
 * not statically detectable, so only the default import works at runtime in Node ESM:
 * `import faye from 'faye'`, then `new faye.Client(url)`; the named exports below are types only.
 */
declare module 'faye' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http'
  import type { Duplex } from 'node:stream'

  /** A Bayeux message as it travels through extensions: known fields plus anything else. */
  export interface Message {
    channel: string
    id?: string
    clientId?: string
    data?: unknown
    ext?: Record<string, unknown>
    successful?: boolean
    error?: string
    advice?: Advice
    subscription?: string | string[]
    connectionType?: string
    version?: string
    minimumVersion?: string
    supportedConnectionTypes?: string[]
    authenticated?: boolean
    [key: string]: unknown
  }

  export interface Advice {
    reconnect?: 'retry' | 'handshake' | 'none'
    interval?: number
    timeout?: number
  }

  export type ExtensionCallback = (message: Message | null) => void

  /**
   * Client extensions take (message, callback). Server extensions may declare a third parameter
   * and then receive (message, request, callback): faye passes the HTTP request when the
   * function's arity is 3 or more. Passing null to the callback drops the message.
   */
  export interface Extension {
    incoming?:
      | ((message: Message, callback: ExtensionCallback) => void)
      | ((message: Message, request: unknown, callback: ExtensionCallback) => void)
    outgoing?:
      | ((message: Message, callback: ExtensionCallback) => void)
      | ((message: Message, request: unknown, callback: ExtensionCallback) => void)
    added?(host: unknown): void
    removed?(host: unknown): void
  }

  export interface Thenable<T = unknown> {
    then<R = T>(onFulfilled?: (value: T) => R | PromiseLike<R>, onRejected?: (error: BayeuxError) => unknown): Promise<R>
  }

  /** A failed operation's error: `code:params:message`, e.g. `401::Invalid access token`. */
  export interface BayeuxError {
    code: number | null
    params: string[]
    message: string
  }

  export interface Subscription extends Thenable<void> {
    cancel(): void
    unsubscribe(): void
    withChannel(callback: (channel: string, message: unknown) => void): Subscription
  }

  export interface Publication extends Thenable<void> {
    callback(fn: () => void): void
    errback(fn: (error: BayeuxError) => void): void
  }

  export interface ClientOptions {
    /** Seconds. */
    timeout?: number
    /** Seconds. */
    interval?: number
    /** Seconds between retries. */
    retry?: number
    endpoints?: Record<string, string>
    proxy?: string | { origin?: string; tls?: unknown }
    tls?: unknown
    ca?: unknown
    websocketExtensions?: unknown[]
    scheduler?: unknown
  }

  export type ClientEvent = 'transport:up' | 'transport:down'

  export interface Client {
    connect(callback?: () => void, context?: unknown): void
    disconnect(): Publication | undefined
    subscribe(channel: string, callback?: (message: unknown) => void, context?: unknown): Subscription
    unsubscribe(channel: string, callback?: (message: unknown) => void): void
    publish(channel: string, data: unknown, options?: { attempts?: number; deadline?: number }): Publication
    addExtension(extension: Extension): void
    removeExtension(extension: Extension): void
    /** 'websocket', 'eventsource', 'autodisconnect', 'cross-origin-long-polling', … */
    disable(feature: string): void
    setHeader(name: string, value: string): void
    bind(event: ClientEvent, listener: () => void, context?: unknown): void
    on(event: ClientEvent, listener: () => void): void
    unbind(event: ClientEvent, listener?: () => void, context?: unknown): void
  }

  export interface ClientConstructor {
    new (endpoint: string, options?: ClientOptions): Client
  }

  /** What a custom engine receives as its host (faye's engine proxy). */
  export interface EngineHost {
    readonly timeout: number
    readonly interval: number
    hasConnection(clientId: string): boolean
    deliver(clientId: string, messages: Message[]): boolean
    flushConnection(clientId: string, close?: boolean): void
    trigger(event: string, ...args: unknown[]): void
    debug(...args: unknown[]): void
  }

  /**
   * A pluggable engine (`engine: {type: Engine, ...}`), the interface faye-redis implements.
   * `create` receives the host and the engine options.
   */
  export interface Engine {
    createClient(callback: (clientId: string) => void, context?: unknown): void
    clientExists(clientId: string, callback: (exists: boolean) => void, context?: unknown): void
    destroyClient(clientId: string, callback?: () => void, context?: unknown): void
    ping(clientId: string): void
    subscribe(clientId: string, channel: string, callback?: (ok: boolean) => void, context?: unknown): void
    unsubscribe(clientId: string, channel: string, callback?: (ok: boolean) => void, context?: unknown): void
    publish(message: Message, channels: string[]): void
    emptyQueue(clientId: string): void
    disconnect(): void
  }

  export interface EngineClass {
    create(host: EngineHost, options: Record<string, unknown>): Engine
  }

  export interface NodeAdapterOptions {
    mount: string
    /** Seconds a connect is held; also the handshake advice timeout. */
    timeout?: number
    /** Seconds between WebSocket-level pings. */
    ping?: number
    engine?: { type?: EngineClass; [option: string]: unknown }
    extensions?: Extension[]
    websocketExtensions?: unknown[]
  }

  export interface NodeAdapter {
    addExtension(extension: Extension): void
    removeExtension(extension: Extension): void
    /** Takes over `request` and `upgrade` on the mount path of an http.Server. */
    attach(server: Server): void
    handle(request: IncomingMessage, response: ServerResponse): void
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void
    /** An in-process client publishing straight into this server. */
    getClient(): Client
    close(): void
    bind(event: string, listener: (...args: unknown[]) => void): void
    on(event: 'handshake' | 'disconnect', listener: (clientId: string) => void): void
    on(event: 'subscribe' | 'unsubscribe', listener: (clientId: string, channel: string) => void): void
    on(event: 'publish', listener: (clientId: string, channel: string, data: unknown) => void): void
  }

  export interface NodeAdapterConstructor {
    new (options: NodeAdapterOptions): NodeAdapter
  }

  const faye: {
    VERSION: string
    Client: ClientConstructor
    NodeAdapter: NodeAdapterConstructor
    logger?: ((message: string) => void) | Record<string, (message: string) => void>
  }
  export default faye
}
