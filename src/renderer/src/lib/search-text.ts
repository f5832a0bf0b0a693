// How typed text finds names: "rene" finds "René", "ANA" finds "Ána". Letters lose their accents
// and their case on both sides, so a query matches however either was written; and a name is
// searched as it is seen, without the invisible marks (direction marks, say) a person cannot type.
import { visibleText } from '@shared/visible-text'

/** The text as a search compares it: as seen, decomposed, without combining marks, in lower case. */
export function foldForSearch(text: string): string {
  return visibleText(text).normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase()
}

/** Whether `name` contains the typed `query`; an empty query matches everything. */
export function nameMatches(name: string, query: string): boolean {
  return foldForSearch(name).includes(foldForSearch(query.trim()))
}
