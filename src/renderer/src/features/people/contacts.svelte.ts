// The user's contacts (R1) as the Contacts region shows them: searched by name, removed (R5), added
// from someone's contact link (R2), and the user's own link to hand out.
import type { Contact, Profile } from '@shared/people'
import { call, messageOf } from '$lib/main-process'
import { nameMatches } from '$lib/search-text'
import { Loadable } from '$lib/state/loadable.svelte'

export class ContactsModel {
  readonly list = new Loadable<Contact[]>({ initial: [], fetch: () => call('contacts:list', {}) })
  query = $state('')
  /** Why the last removal was refused. */
  removeError = $state<string | null>(null)
  /** The user's own contact link, once known. */
  myLink = $state<string | null>(null)
  myLinkError = $state<string | null>(null)

  shown: Contact[] = $derived(this.list.value.filter((contact) => nameMatches(contact.name, this.query)).toSorted((a, b) => a.name.localeCompare(b.name)))
  count = $derived(this.list.value.length)

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
      this.list.edit((all) => all.filter((contact) => contact.id !== userId))
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
    void this.list.load()
    return profile
  }

  /** Contacts an import matched, added to those shown without another load. */
  include(contacts: Contact[]): void {
    this.list.edit((all) => {
      // A lookup for this call only, over thousands of imported contacts: nothing renders from it.
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      const known = new Set(all.map((contact) => contact.id))
      return [...all, ...contacts.filter((contact) => !known.has(contact.id))]
    })
  }
}
