// Importing an address book (R3, then R4): the file is read here, the rows main would refuse are
// set aside for the user to see, and the rest go to main under a fresh id whose progress events
// this follows.
import type { Contact, ContactCard } from '@shared/people'
import { readContactCsv, type UnreadRow } from '$lib/contact-csv'
import { call, listen, messageOf } from '$lib/main-process'

export type ImportStep = 'idle' | 'ready' | 'importing' | 'done' | 'error'

export class ContactImportModel {
  step = $state<ImportStep>('idle')
  fileName = $state('')
  cards = $state.raw<ContactCard[]>([])
  unread = $state.raw<UnreadRow[]>([])
  progress = $state<{ done: number; total: number } | null>(null)
  /** How many were sent and who matched an account, once the import is over. */
  result = $state.raw<{ submitted: number; matched: Contact[] } | null>(null)
  error = $state<string | null>(null)

  #importId: string | null = null

  listen(): () => void {
    return listen('contacts:importProgress', ({ importId, done, total }) => {
      if (importId === this.#importId) this.progress = { done, total }
    })
  }

  /** Reads a chosen file; nothing is sent until `start`. */
  async read(file: File): Promise<void> {
    this.#reset()
    this.fileName = file.name
    try {
      const { cards, unread } = readContactCsv(await file.text())
      this.cards = cards
      this.unread = unread
      this.step = 'ready'
    } catch {
      this.step = 'error'
      this.error = `${file.name} could not be read. Choose a CSV file of names and phone numbers.`
    }
  }

  /** Sends the cards read; resolves with the contacts matched, or null when the import failed (`error` says why). */
  async start(): Promise<Contact[] | null> {
    if (this.step !== 'ready' || this.cards.length === 0) return null
    const importId = crypto.randomUUID()
    this.#importId = importId
    this.step = 'importing'
    this.progress = { done: 0, total: this.cards.length }
    this.error = null
    try {
      const result = await call('contacts:import', { importId, cards: this.cards })
      if (this.#importId !== importId) return null
      this.result = result
      this.step = 'done'
      return result.matched
    } catch (error) {
      if (this.#importId !== importId) return null
      // The cards stay read, so Import can be tried again.
      this.step = 'ready'
      this.error = messageOf(error)
      return null
    }
  }

  clear(): void {
    this.#reset()
  }

  #reset(): void {
    this.#importId = null
    this.step = 'idle'
    this.fileName = ''
    this.cards = []
    this.unread = []
    this.progress = null
    this.result = null
    this.error = null
  }
}
