// Joining a group through its share link (G8), and the requests this device is still waiting on:
// a manager's approval comes as the group joining the list, a refusal never comes at all.
import type { Conversation } from '@shared/conversations'
import type { PendingJoin } from '@shared/groups'
import { MAX_JOIN_ANSWER } from '@shared/limits'
import { call, messageOf } from '$lib/main-process'

export class GroupJoinsModel {
  pending = $state<PendingJoin[]>([])
  /** The request just made, waiting for approval. */
  waiting = $state<PendingJoin | null>(null)
  joining = $state(false)
  error = $state<string | null>(null)
  /**
   * The link (as typed) the user was told, before sending, that its group may ask why they want
   * to join: nobody can see a group's question before joining (docs/protocol.md §7), and an answer
   * cannot be added to a request once it is made. Joining through it again sends, answered or not.
   */
  toldAboutQuestion = $state<string | null>(null)

  async loadPending(): Promise<void> {
    try {
      this.pending = await call('groups:pendingJoins', {})
    } catch (error) {
      this.error = `Your waiting requests could not be loaded. ${messageOf(error)}`
    }
  }

  /**
   * Resolves with the group when the user is in it; with null while a manager has to approve, when
   * it failed, or when the user is first told the group may ask a question (nothing is sent then
   * but main's reading of the link, which refuses one that is not the service's own).
   */
  async join(link: string, answer: string): Promise<Conversation | null> {
    const trimmedLink = link.trim()
    const trimmedAnswer = answer.trim()
    this.waiting = null
    if (trimmedLink === '') {
      this.error = 'Paste the group’s link first.'
      return null
    }
    if (trimmedAnswer.length > MAX_JOIN_ANSWER) {
      this.error = `An answer can be at most ${MAX_JOIN_ANSWER} characters.`
      return null
    }
    this.joining = true
    this.error = null
    try {
      if (trimmedAnswer === '' && this.toldAboutQuestion !== trimmedLink) {
        await call('groups:checkLink', { link: trimmedLink })
        this.toldAboutQuestion = trimmedLink
        return null
      }
      const outcome = await call('groups:join', { link: trimmedLink, answer: trimmedAnswer === '' ? null : trimmedAnswer })
      this.toldAboutQuestion = null
      if (outcome.status === 'joined') return outcome.conversation
      this.waiting = outcome.request
      await this.loadPending()
      return null
    } catch (error) {
      this.error = messageOf(error)
      return null
    } finally {
      this.joining = false
    }
  }

  async forget(groupId: string): Promise<void> {
    try {
      this.pending = await call('groups:forgetPendingJoin', { groupId })
      if (this.waiting?.groupId === groupId) this.waiting = null
    } catch (error) {
      this.error = messageOf(error)
    }
  }
}
