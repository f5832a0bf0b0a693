// The user's contacts (R1) as the Contacts region shows them: searched by name, removed (R5), added
// from someone's contact link (R2), and the user's own link to hand out.
import type { Contact, Profile } from '../../../../shared/people'
import { call, messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'
import { nameMatches } from '../search-text'

export class ContactsModel {
  #all = $state<Contact[]>([])
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  /** Why the list could not be loaded. */
  error = $state<string | null>(null)
  query = $state('')
  /** Why the last removal was refused. */
  removeError = $state<string | null>(null)
  /** The user's own contact link, once known. */
  myLink = $state<string | null>(null)
  myLinkError = $state<string | null>(null)

  shown: Contact[] = $derived(this.#all.filter((contact) => nameMatches(contact.name, this.query)).toSorted((a, b) => a.name.localeCompare(b.name)))
  count = $derived(this.#all.length)

  /** What could not be loaded for want of the service loads again by itself once it is back. */
  readonly #whenBack = new RetryWhenBack(() => {
    if (this.status === 'error') void this.load()
  })

  async load(): Promise<void> {
    this.#whenBack.cancel()
    this.status = 'loading'
    this.error = null
    try {
      this.#all = await call('contacts:list', {})
      this.status = 'ready'
    } catch (error) {
      this.status = 'error'
      this.error = messageOf(error)
      this.#whenBack.failed(error)
    }
  }

  async loadMyLink(): Promise<void> {
    this.myLinkError = null
    try {
      this.myLink = (await call('contacts:myLink', {})).url
    } catch (error) {
      this.myLinkError = messageOf(error)
    }
  }

  /** Resolves whether they were removed; `removeError` says why not. */
  async remove(userId: string): Promise<boolean> {
    this.removeError = null
    try {
      await call('contacts:remove', { userId })
      this.#all = this.#all.filter((contact) => contact.id !== userId)
      return true
    } catch (error) {
      this.removeError = messageOf(error)
      return false
    }
  }

  /** Adds whoever the link belongs to and answers their profile; throws with why not. */
  async addFromLink(link: string): Promise<Profile> {
    const profile = await call('contacts:addFromLink', { link: link.trim() })
    // The list says how they became a contact, which the profile does not: ask for it afresh.
    void this.load()
    return profile
  }

  /** Contacts an import matched, added to those shown without another load. */
  include(contacts: Contact[]): void {
    // A lookup for this call only, over thousands of imported contacts: nothing renders from it.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const known = new Set(this.#all.map((contact) => contact.id))
    this.#all = [...this.#all, ...contacts.filter((contact) => !known.has(contact.id))]
  }
}
