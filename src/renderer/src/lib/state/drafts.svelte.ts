// What the person wrote in each conversation and has not sent: the text of its Message box and the
// pictures chosen. Held here for the composer and the list's `Draft:` preview, and handed to main
// (which keeps it in the account's store) as it changes: the text a moment after typing stops, a
// draft emptied (sent, or erased) or a picture uploaded or removed at once, and whatever waits when
// the person moves to another conversation or the page goes. A save main cannot take changes
// nothing here: the draft stays on screen, and the next change saves it all again.
import { SvelteMap } from 'svelte/reactivity'
import type { ConversationId } from '@shared/conversation-id'
import { draftPreview } from '@shared/drafts'
import { call } from '../main-process'
import { AttachmentDraftsByConversation, type AttachmentDrafts } from './attachment-drafts.svelte'

/** How long typing rests before its text is saved. */
export const DRAFT_SAVE_DELAY_MS = 400

export class DraftsModel {
  readonly #texts = new SvelteMap<ConversationId, string>()
  readonly #pictures = new AttachmentDraftsByConversation((conversationId) => {
    this.#noteChange(conversationId)
    this.#saveNow(conversationId)
  })
  /** Saves waiting for typing to rest, by conversation: timers, which nothing draws. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #waiting = new Map<ConversationId, ReturnType<typeof setTimeout>>()
  /** Bumped when another person's drafts replace these, so a list asked for before is not applied. */
  #generation = 0
  /** For each `load` under way, the conversations changed here since it asked: what main answers of them is older. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, which nothing draws
  readonly #changedDuringLoads = new Set<Set<ConversationId>>()

  text(conversationId: ConversationId | null): string {
    return conversationId === null ? '' : (this.#texts.get(conversationId) ?? '')
  }

  setText(conversationId: ConversationId | null, text: string): void {
    if (conversationId === null || this.text(conversationId) === text) return
    this.#noteChange(conversationId)
    if (text === '') this.#texts.delete(conversationId)
    else this.#texts.set(conversationId, text)
    if (text.trim() === '') this.#saveNow(conversationId)
    else this.#saveSoon(conversationId)
  }

  pictures(conversationId: ConversationId | null): AttachmentDrafts {
    return this.#pictures.for(conversationId)
  }

  /** What the list shows after `Draft:` for the conversation; null when it has no draft. */
  preview(conversationId: ConversationId): string | null {
    return draftPreview(this.text(conversationId), this.#pictures.peek(conversationId)?.images.length ?? 0)
  }

  /**
   * Brings in the drafts main keeps (after a reload or a restart). A conversation holding something
   * here, or changed here while main answered (a draft sent meanwhile, say), keeps what it holds: it is newer.
   */
  async load(): Promise<void> {
    const generation = this.#generation
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, which nothing draws
    const changed = new Set<ConversationId>()
    this.#changedDuringLoads.add(changed)
    const kept = await call('drafts:list', {})
      .catch(() => [])
      .finally(() => this.#changedDuringLoads.delete(changed))
    if (generation !== this.#generation) return
    for (const draft of kept) {
      const pictures = this.#pictures.peek(draft.conversationId)
      if (changed.has(draft.conversationId) || this.text(draft.conversationId) !== '' || (pictures?.images.length ?? 0) > 0) continue
      if (draft.text !== '') this.#texts.set(draft.conversationId, draft.text)
      this.#pictures.for(draft.conversationId).restore(draft.pictures)
    }
  }

  /** Saves now what waits for typing to rest: of one conversation, or of all. */
  flush(conversationId?: ConversationId): void {
    const ids = conversationId === undefined ? [...this.#waiting.keys()] : this.#waiting.has(conversationId) ? [conversationId] : []
    for (const id of ids) this.#saveNow(id)
  }

  /** Every save waiting goes before the page does (a reload, the window closing). */
  listen(): () => void {
    const beforeLeaving = (): void => this.flush()
    window.addEventListener('pagehide', beforeLeaving)
    const stopPictures = this.#pictures.listen()
    return () => {
      window.removeEventListener('pagehide', beforeLeaving)
      stopPictures()
    }
  }

  /** Another person signed in: nothing the previous one wrote may show for them, nor be saved as theirs. */
  forget(): void {
    this.#generation += 1
    for (const timer of this.#waiting.values()) clearTimeout(timer)
    this.#waiting.clear()
    this.#texts.clear()
    this.#pictures.forget()
  }

  #noteChange(conversationId: ConversationId): void {
    for (const changed of this.#changedDuringLoads) changed.add(conversationId)
  }

  #saveSoon(conversationId: ConversationId): void {
    clearTimeout(this.#waiting.get(conversationId))
    this.#waiting.set(
      conversationId,
      setTimeout(() => this.#saveNow(conversationId), DRAFT_SAVE_DELAY_MS)
    )
  }

  /**
   * Hands main the conversation's draft as it is now. Called in the order things changed, each
   * call carrying the whole draft, so main ends with the latest whatever it took before.
   */
  #saveNow(conversationId: ConversationId): void {
    clearTimeout(this.#waiting.get(conversationId))
    this.#waiting.delete(conversationId)
    const pictures = this.#pictures.peek(conversationId)?.kept ?? []
    void call('drafts:keep', { conversationId, text: this.text(conversationId), pictures }).catch(() => undefined)
  }
}
