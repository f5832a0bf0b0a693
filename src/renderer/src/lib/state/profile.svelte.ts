// The profile on screen (U3): whose, loaded or why not, and what the user does with them there:
// block, unblock, or start a chat.
import type { Conversation } from '../../../../shared/conversations'
import type { Profile } from '../../../../shared/people'
import { call, messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'

export class ProfileModel {
  /** Whose profile is open, or null when none is. */
  userId = $state<string | null>(null)
  profile = $state<Profile | null>(null)
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  /** Why the profile could not be loaded. */
  error = $state<string | null>(null)
  /** Why the last block, unblock or Send message was refused; the profile stays as it was. */
  actionError = $state<string | null>(null)
  busy = $state(false)

  /** Bumped by each opening, so an answer for someone else's profile is dropped. */
  #version = 0
  /** A profile that could not be loaded for want of the service loads again by itself once it is back. */
  readonly #whenBack = new RetryWhenBack(() => {
    if (this.status === 'error') void this.retry()
  })

  async open(userId: string): Promise<void> {
    this.#whenBack.cancel()
    const version = ++this.#version
    this.userId = userId
    this.profile = null
    this.status = 'loading'
    this.error = null
    this.actionError = null
    this.busy = false
    try {
      const profile = await call('people:profile', { userId })
      if (version !== this.#version) return
      this.profile = profile
      this.status = 'ready'
    } catch (error) {
      if (version !== this.#version) return
      this.status = 'error'
      this.error = messageOf(error)
      this.#whenBack.failed(error)
    }
  }

  async retry(): Promise<void> {
    if (this.userId !== null) await this.open(this.userId)
  }

  close(): void {
    this.#whenBack.cancel()
    this.#version++
    this.userId = null
    this.profile = null
    this.status = 'idle'
    this.error = null
    this.actionError = null
    this.busy = false
  }

  block(): Promise<void> {
    return this.#change('people:block')
  }

  unblock(): Promise<void> {
    return this.#change('people:unblock')
  }

  /** The chat with this person, made ready to write in; null when refused (`actionError` says why). */
  async startChat(): Promise<Conversation | null> {
    const userId = this.userId
    if (userId === null || this.busy) return null
    const version = this.#version
    this.busy = true
    this.actionError = null
    try {
      return await call('chats:start', { userId })
    } catch (error) {
      if (version === this.#version) this.actionError = messageOf(error)
      return null
    } finally {
      if (version === this.#version) this.busy = false
    }
  }

  async #change(channel: 'people:block' | 'people:unblock'): Promise<void> {
    const userId = this.userId
    if (userId === null || this.busy) return
    const version = this.#version
    this.busy = true
    this.actionError = null
    try {
      const profile = await call(channel, { userId })
      if (version === this.#version) this.profile = profile
    } catch (error) {
      if (version === this.#version) this.actionError = messageOf(error)
    } finally {
      if (version === this.#version) this.busy = false
    }
  }
}
