// The rows of an address book the user imports (R3, docs/protocol.md §6), checked before anything
// is sent: the service refuses a whole request for one bad entry, so the user hears of every bad
// row at once and nothing is half imported.
import type { ContactCard } from '@shared/people'
import { AppError } from './app-error'

/** R3's rule for a phone number. */
const PHONE = /^\+?[0-9]{7,15}$/

/** What people write around the digits of a phone number: spaces, dashes, dots and brackets. */
const PHONE_PUNCTUATION = /[\s\-.()[\]]/g

/** How many bad rows the message names before it only counts the rest. */
const ROWS_NAMED = 10

/**
 * The cards as R3 takes them (names trimmed, phones reduced to `+` and digits), or a VALIDATION
 * error that names each bad row, counted from 1.
 */
export function checkedCards(cards: readonly ContactCard[]): ContactCard[] {
  if (cards.length === 0) throw new AppError('VALIDATION', 'There is nobody to import: the list is empty.')
  const problems: string[] = []
  const checked = cards.map((card, index) => {
    const row = index + 1
    const name = card.name.trim()
    const phone = card.phone.replace(PHONE_PUNCTUATION, '')
    if (name === '') problems.push(`row ${row} has no name`)
    if (!PHONE.test(phone)) problems.push(card.phone.trim() === '' ? `row ${row} has no phone number` : `row ${row}: “${card.phone.trim()}” is not a phone number`)
    return { name, phone }
  })
  if (problems.length > 0) {
    const named = problems.slice(0, ROWS_NAMED).join('; ')
    const more = problems.length > ROWS_NAMED ? `; and ${problems.length - ROWS_NAMED} more` : ''
    throw new AppError('VALIDATION', `Nothing was imported. Fix these rows and try again: ${named}${more}.`)
  }
  return checked
}
