// What the Go to dialog offers for what is typed: the user's conversations and the people they may
// write to, found by any part of the name, accents and case aside ("rene" finds "René"), then more
// loosely by the typed letters in order ("wkh" finds "Weekend Hikers").
import { chatId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Person } from '@shared/people'
import { foldForSearch } from '$lib/search-text'

export type GoToTarget = { kind: 'conversation'; conversation: Conversation } | { kind: 'person'; person: Person }

/** How a query finds a name: each of its words somewhere in it, only its letters in order, or not at all. */
export type NameMatch = 'words' | 'letters' | null

export function matchName(name: string, query: string): NameMatch {
  const words = foldForSearch(query).split(/\s+/u).filter((word) => word !== '')
  if (words.length === 0) return 'words'
  const folded = foldForSearch(name)
  if (words.every((word) => folded.includes(word))) return 'words'
  return inOrder(words.join(''), folded) ? 'letters' : null
}

/** Whether every character of `letters` appears in `text`, in the same order. */
function inOrder(letters: string, text: string): boolean {
  let at = 0
  for (const letter of letters) {
    at = text.indexOf(letter, at)
    if (at === -1) return false
    at += letter.length
  }
  return true
}

/**
 * The targets for a query: those it finds by their words before those it finds only by letters;
 * within each, conversations as recent first as `conversations` lists them, then people with no
 * chat yet. Someone the user already has a chat with is offered as that chat.
 */
export function goToTargets(conversations: readonly Conversation[], people: readonly Person[], meId: string, query: string, limit = 50): GoToTarget[] {
  const listed = new Set(conversations.map((conversation) => conversation.id))
  const all: GoToTarget[] = [
    ...conversations.map((conversation): GoToTarget => ({ kind: 'conversation', conversation })),
    ...people.filter((person) => person.id !== meId && !listed.has(chatId(meId, person.id))).map((person): GoToTarget => ({ kind: 'person', person }))
  ]
  const byWords: GoToTarget[] = []
  const byLetters: GoToTarget[] = []
  for (const target of all) {
    const match = matchName(targetName(target), query)
    if (match === 'words') byWords.push(target)
    else if (match === 'letters') byLetters.push(target)
  }
  return [...byWords, ...byLetters].slice(0, limit)
}

export function targetName(target: GoToTarget): string {
  return target.kind === 'conversation' ? target.conversation.name : target.person.name
}
