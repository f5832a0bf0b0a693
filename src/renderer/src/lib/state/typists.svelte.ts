// Who else is typing in the open conversation. A typist counts as stopped 5 s after they last said
// so, or as soon as their message arrives (§14.3): the service never says "stopped".
import type { ConversationId } from '@shared/conversation-id'
import type { Typist } from '@shared/conversations'
import { SvelteMap } from 'svelte/reactivity'
import type { TextPart } from '../given-text'
import { listen } from '../main-process'

export const TYPING_SILENCE_MS = 5_000

export class TypistsModel {
  conversationId = $state<ConversationId | null>(null)
  readonly #typists = new SvelteMap<string, Typist>()
  // Timers are bookkeeping, never shown: a plain Map keeps them out of reactivity.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>()

  /** Names, in the order they started typing. */
  names: string[] = $derived([...this.#typists.values()].map((typist) => typist.name))

  listen(): () => void {
    const stops = [
      listen('typing:received', (typist) => this.#typing(typist)),
      listen('messages:received', (message) => {
        if (message.conversationId === this.conversationId) this.#stopped(message.senderId)
      })
    ]
    return () => {
      stops.forEach((stop) => stop())
      this.#clear()
    }
  }

  /** Shows typists of this conversation only, from now on. */
  show(conversationId: ConversationId | null): void {
    if (conversationId === this.conversationId) return
    this.conversationId = conversationId
    this.#clear()
  }

  #typing(typist: Typist): void {
    if (typist.conversationId !== this.conversationId) return
    const timer = this.#timers.get(typist.userId)
    if (timer !== undefined) clearTimeout(timer)
    // The push's own time is the typist's clock; silence is counted on ours, from when it arrived.
    this.#timers.set(
      typist.userId,
      setTimeout(() => this.#stopped(typist.userId), TYPING_SILENCE_MS)
    )
    if (!this.#typists.has(typist.userId)) this.#typists.set(typist.userId, typist)
  }

  #stopped(userId: string): void {
    const timer = this.#timers.get(userId)
    if (timer !== undefined) clearTimeout(timer)
    this.#timers.delete(userId)
    this.#typists.delete(userId)
  }

  #clear(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
    this.#typists.clear()
  }
}

/** "Grace is typing…", "Grace and Alan are typing…", each name isolated; nothing when nobody is. */
export function typingParts(names: readonly string[]): TextPart[] {
  const [first, second, third] = names
  if (first === undefined) return []
  if (second === undefined) return [{ given: first }, ' is typing…']
  if (third === undefined) return [{ given: first }, ' and ', { given: second }, ' are typing…']
  if (names.length === 3) return [{ given: first }, ', ', { given: second }, ' and ', { given: third }, ' are typing…']
  return [{ given: first }, ', ', { given: second }, ` and ${names.length - 2} others are typing…`]
}
