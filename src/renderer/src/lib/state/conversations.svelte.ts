// The sidebar's list: every conversation, groups and direct messages together, newest activity first.
import type { ConversationId } from '../../../../shared/conversation-id'
import type { Conversation } from '../../../../shared/conversations'
import { call, messageOf } from '../main-process'
import { keepUnchanged } from '../keep-unchanged'

export class ConversationsModel {
  /** Replaced, never changed in place: raw, so a new list costs no proxies. */
  #all = $state.raw<Conversation[]>([])
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  error = $state<string | null>(null)
  selectedId = $state<ConversationId | null>(null)

  sorted: Conversation[] = $derived(
    // Ties (same second) fall back to the name so the order does not jitter between updates.
    this.#all.toSorted((a, b) => b.lastActivityAt - a.lastActivityAt || a.name.localeCompare(b.name))
  )
  selected: Conversation | null = $derived(this.#all.find((c) => c.id === this.selectedId) ?? null)

  /** Bumped by every new list, so a slow `conversations:list` cannot overwrite a newer event's. */
  #version = 0

  async load(): Promise<void> {
    this.status = 'loading'
    this.error = null
    const version = ++this.#version
    try {
      const list = await call('conversations:list', {})
      if (version === this.#version) this.replace(list)
    } catch (error) {
      if (version !== this.#version) return
      this.status = 'error'
      this.error = messageOf(error)
    }
  }

  /** Main sends the whole list whenever anything in it changes. */
  replace(list: Conversation[]): void {
    this.#version++
    this.#all = keepUnchanged(this.#all, list, (conversation) => conversation.id)
    this.status = 'ready'
    this.error = null
  }

  /** Keeps one entry fresh with what `conversations:open` returned, before the next full list. */
  update(conversation: Conversation): void {
    this.#all = this.#all.map((c) => (c.id === conversation.id ? conversation : c))
  }

  select(id: ConversationId | null): void {
    this.selectedId = id
  }

  clear(): void {
    this.#version++
    this.#all = []
    this.status = 'idle'
    this.error = null
    this.selectedId = null
  }
}
