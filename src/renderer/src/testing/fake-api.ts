// A stand-in for `window.api` in component tests: records every call, answers from a script the
// test sets up, and lets the test play main's part by emitting events.
import type { Account } from '@shared/account'
import type { Conversation } from '@shared/conversations'
import type { Message, PendingMessage } from '@shared/messages'
import type { DesktopState } from '@shared/attention'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type {
  Api,
  ErrorCode,
  EventContract,
  EventName,
  InvokeChannel,
  InvokeRequest,
  InvokeResponse,
  IpcResult
} from '@shared/window-api'

type Answer<C extends InvokeChannel> =
  | IpcResult<InvokeResponse<C>>
  | Promise<IpcResult<InvokeResponse<C>>>
type Handler<C extends InvokeChannel> = (request: InvokeRequest<C>) => Answer<C>

export interface RecordedCall {
  channel: InvokeChannel
  request: unknown
}

export class FakeApi {
  readonly calls: RecordedCall[] = []
  readonly #handlers = new Map<InvokeChannel, (request: unknown) => unknown>()
  readonly #listeners = new Map<EventName, Set<(payload: unknown) => void>>()

  constructor() {
    // Quiet defaults: signed out, nothing to show. Tests override what they exercise.
    this.returns('app:ready', null)
    this.returns('session:get', { status: 'signedOut', notice: null })
    this.returns('conversations:list', [])
    this.returns('conversations:close', null)
    this.returns('conversations:leftOpen', { conversationId: null })
    this.returns('session:signOut', { status: 'signedOut' })
    this.returns('session:cancelVerification', null)
    this.returns('shell:openExternal', null)
    this.returns('messages:discard', null)
    this.returns('desktop:get', desktopState())
    this.returns('presence:activity', null)
    // Settings lists whom the user blocks each time it opens.
    this.returns('people:blocked', [])
    // Settings ▸ Security shows two-step verification's state and the signed-in apps each time it opens.
    this.returns('account:get', account)
    this.returns('security:signedInApps', [])
  }

  readonly api: Api = {
    invoke: async (channel, request) => {
      this.calls.push({ channel, request })
      const handler = this.#handlers.get(channel)
      if (!handler) return { ok: false, error: { code: 'INTERNAL', message: `No answer scripted for ${channel}.` } }
      // The map is filled only through `handle`, which ties each handler to its channel's types.
      return (await handler(request)) as never
    },
    on: (event, listener) => {
      const set = this.#listeners.get(event) ?? new Set()
      this.#listeners.set(event, set)
      const untyped = listener as (payload: unknown) => void
      set.add(untyped)
      return () => set.delete(untyped)
    }
  }

  handle<C extends InvokeChannel>(channel: C, handler: Handler<C>): this {
    this.#handlers.set(channel, handler as (request: unknown) => unknown)
    return this
  }

  returns<C extends InvokeChannel>(channel: C, value: InvokeResponse<C>): this {
    return this.handle(channel, () => ({ ok: true, value }))
  }

  fails<C extends InvokeChannel>(channel: C, code: ErrorCode, message: string): this {
    return this.handle(channel, () => ({ ok: false, error: { code, message } }))
  }

  /** Answers the next calls on `channel` only when the test resolves the returned promise. */
  holds<C extends InvokeChannel>(channel: C): { resolve(value: InvokeResponse<C>): void } {
    let resolve: (value: InvokeResponse<C>) => void = () => {}
    const answer = new Promise<InvokeResponse<C>>((r) => (resolve = r))
    this.handle(channel, async () => ({ ok: true, value: await answer }))
    return { resolve: (value) => resolve(value) }
  }

  emit<E extends EventName>(event: E, payload: EventContract[E]): void {
    for (const listener of this.#listeners.get(event) ?? []) listener(payload)
  }

  listenerCount(event: EventName): number {
    return this.#listeners.get(event)?.size ?? 0
  }

  callsTo<C extends InvokeChannel>(channel: C): InvokeRequest<C>[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.request as InvokeRequest<C>)
  }

  install(): this {
    window.api = this.api
    return this
  }
}

export const me = { id: 'u1', name: 'Ada Lovelace', avatarUrl: null }

/** `me`'s account, as its owner manages it. */
export const account: Account = { ...me, email: 'ada@example.test', bio: '', twoStep: { enabled: false, phoneHint: null } }

export function conversation(overrides: Partial<Conversation> & Pick<Conversation, 'id' | 'name'>): Conversation {
  return {
    kind: 'group',
    avatarUrl: null,
    lastActivityAt: 1_700_000_000,
    lastMessageId: null,
    preview: null,
    unreadCount: 0,
    mute: null,
    ...overrides
  }
}

/** Active, nothing muted, nothing unread, the default settings, on a host with neither tray nor login item (browser mode). */
export function desktopState(overrides: Partial<DesktopState> = {}): DesktopState {
  return {
    status: 'active',
    statusIsAutomatic: false,
    mute: null,
    unreadCount: 0,
    settings: DEFAULT_SETTINGS,
    host: { tray: false, startAtLogin: false },
    ...overrides
  }
}

let nextMessage = 1

export function message(overrides: Partial<Message> & Pick<Message, 'conversationId' | 'text'>): Message {
  const n = nextMessage++
  return {
    id: `m${n}`,
    sourceGuid: `guid-${n}`,
    senderId: 'u2',
    senderName: 'Grace Hopper',
    senderAvatarUrl: null,
    attachments: [],
    createdAt: 1_700_000_000 + n * 60,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...overrides
  }
}

export function pending(overrides: Partial<PendingMessage> & Pick<PendingMessage, 'conversationId' | 'clientId' | 'text'>): PendingMessage {
  return { queuedAt: Date.now(), state: 'sending', error: null, ...overrides }
}
