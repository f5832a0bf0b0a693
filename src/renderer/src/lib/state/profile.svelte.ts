// The profile on screen (U3): whose, loaded or why not, and what the user does with them there:
// block, unblock, or start a chat.
import type { Conversation } from '@shared/conversations'
import type { Profile } from '@shared/people'
import { call, messageOf } from '../main-process'
import { Loadable } from './loadable.svelte'

export class ProfileModel {
  /** Whose profile is open, or null when none is. */
  userId = $state<string | null>(null)
  /** Theirs; one that could not be loaded for want of the service is opened again once it is back. */
  readonly profile = new Loadable<Profile | null>({
    initial: null,
    fetch: () => this.#fetch(),
    whenBack: () => void this.retry()
  })
  /** Why the last block, unblock or Send message was refused; the profile stays as it was. */
  actionError = $state<string | null>(null)
  busy = $state(false)

  /** Bumped by each opening, so the answer to a change on someone else's profile is dropped. */
  #version = 0

  async open(userId: string): Promise<void> {
    this.#version++
    this.userId = userId
    this.profile.reset()
    this.actionError = null
    this.busy = false
    await this.profile.load()
  }

  async retry(): Promise<void> {
    if (this.userId !== null) await this.open(this.userId)
  }

  close(): void {
    this.#version++
    this.userId = null
    this.profile.reset()
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

  #fetch(): Promise<Profile> {
    if (this.userId === null) throw new Error('No profile is open.')
    return call('people:profile', { userId: this.userId })
  }

  async #change(channel: 'people:block' | 'people:unblock'): Promise<void> {
    const userId = this.userId
    if (userId === null || this.busy) return
    const version = this.#version
    this.busy = true
    this.actionError = null
    try {
      const profile = await call(channel, { userId })
      if (version === this.#version) this.profile.set(profile)
    } catch (error) {
      if (version === this.#version) this.actionError = messageOf(error)
    } finally {
      if (version === this.#version) this.busy = false
    }
  }
}
