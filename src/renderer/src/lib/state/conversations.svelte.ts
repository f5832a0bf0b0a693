// The sidebar's list: every conversation, groups and direct messages together, newest activity first.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import { call } from '../main-process'
import { keepUnchanged } from '../keep-unchanged'
import { Loadable } from './loadable.svelte'

export class ConversationsModel {
  /**
   * Loaded on sign-in, then replaced by every list main sends, which a slow load cannot overwrite.
   * A failed load waits for Try again, or for the next list main sends.
   */
  readonly list: Loadable<Conversation[]> = new Loadable<Conversation[]>({
    initial: [],
    fetch: async () => keepUnchanged(this.list.value, await call('conversations:list', {}), (conversation) => conversation.id),
    whenBack: null
  })
  selectedId = $state<ConversationId | null>(null)

  sorted: Conversation[] = $derived(
    // Ties (same second) fall back to the name so the order does not jitter between updates.
    this.list.value.toSorted((a, b) => b.lastActivityAt - a.lastActivityAt || a.name.localeCompare(b.name))
  )
  selected: Conversation | null = $derived(this.list.value.find((c) => c.id === this.selectedId) ?? null)

  /** Main sends the whole list whenever anything in it changes. */
  replace(list: Conversation[]): void {
    this.list.set(keepUnchanged(this.list.value, list, (conversation) => conversation.id))
  }

  /** Keeps one entry fresh with what `conversations:open` returned, before the next full list. */
  update(conversation: Conversation): void {
    this.list.edit((all) => all.map((c) => (c.id === conversation.id ? conversation : c)))
  }

  /**
   * The conversation after (1) or before (-1) the selected one in the list's order, or among those
   * with unread messages; with none selected, the first or the last. Undefined at the list's end.
   */
  step(direction: 1 | -1, unreadOnly: boolean): Conversation | undefined {
    const list = this.sorted
    const index = list.findIndex((conversation) => conversation.id === this.selectedId)
    const from = index !== -1 ? index : direction === 1 ? -1 : list.length
    for (let at = from + direction; at >= 0 && at < list.length; at += direction) {
      const candidate = list[at]
      if (candidate !== undefined && (!unreadOnly || candidate.unreadCount > 0)) return candidate
    }
    return undefined
  }

  select(id: ConversationId | null): void {
    this.selectedId = id
  }

  clear(): void {
    this.list.reset()
    this.selectedId = null
  }
}
