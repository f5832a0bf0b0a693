// Starting a direct message: whom the user may write to (their contacts and the members of their
// groups), whom they chose, and the chat main starts with them (kept unlisted until its first message).
import type { Conversation } from '@shared/conversations'
import type { Person } from '@shared/people'
import { call, messageOf } from '$lib/main-process'
import { Loadable } from '$lib/state/loadable.svelte'

export class NewMessageModel {
  readonly candidates = new Loadable<Person[]>({ initial: [], fetch: () => call('people:candidates', {}) })
  recipient = $state<Person | null>(null)
  /** Why the chat could not be started. */
  error = $state<string | null>(null)
  starting = $state(false)

  choose(person: Person | null): void {
    this.recipient = person
    this.error = null
  }

  /** The chat with the chosen person, or null when nobody is chosen or main refused (`error` says why). */
  async start(): Promise<Conversation | null> {
    if (this.starting) return null
    if (this.recipient === null) {
      this.error = 'Choose someone from the list first.'
      return null
    }
    this.starting = true
    this.error = null
    try {
      return await call('chats:start', { userId: this.recipient.id })
    } catch (error) {
      this.error = messageOf(error)
      return null
    } finally {
      this.starting = false
    }
  }
}
