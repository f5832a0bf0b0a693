// Starting a direct message: whom the user may write to (their contacts and the members of their
// groups), whom they chose, and the chat main starts with them (kept unlisted until its first message).
import type { Conversation } from '../../../../shared/conversations'
import type { Person } from '../../../../shared/people'
import { call, messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'

export class NewMessageModel {
  candidates = $state.raw<Person[]>([])
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  /** Why the candidates could not be loaded. */
  loadError = $state<string | null>(null)
  recipient = $state<Person | null>(null)
  /** Why the chat could not be started. */
  error = $state<string | null>(null)
  starting = $state(false)

  /** What could not be loaded for want of the service loads again by itself once it is back. */
  readonly #whenBack = new RetryWhenBack(() => {
    if (this.status === 'error') void this.load()
  })

  async load(): Promise<void> {
    this.#whenBack.cancel()
    this.status = 'loading'
    this.loadError = null
    try {
      this.candidates = await call('people:candidates', {})
      this.status = 'ready'
    } catch (error) {
      this.status = 'error'
      this.loadError = messageOf(error)
      this.#whenBack.failed(error)
    }
  }

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
