import { describe, expect, it } from 'vitest'
import { chatId } from '@shared/conversation-id'
import type { Person } from '@shared/people'
import { conversation, me } from '../../testing/fake-api'
import { goToTargets, matchName, targetName } from './go-to-targets'

const person = (id: string, name: string): Person => ({ id, name, avatarUrl: null })

describe('matchName', () => {
  it('finds every typed word anywhere in the name, whatever the accents and case on either side', () => {
    expect(matchName('René Descartes', 'rene')).toBe('words')
    expect(matchName('Rene Descartes', 'RENÉ')).toBe('words')
    expect(matchName('Randonnée d’été', 'ete rand')).toBe('words')
    expect(matchName('Grace Hopper', 'oppe')).toBe('words')
    expect(matchName('Grace Hopper', '   ')).toBe('words')
  })

  it('falls back to the typed letters in order, across the words', () => {
    expect(matchName('Weekend Hikers', 'wkndhk')).toBe('letters')
    expect(matchName('Weekend Hikers', 'wkd hks')).toBe('letters')
    expect(matchName('Weekend Hikers', 'hkw')).toBe(null)
    expect(matchName('Book Club', 'z')).toBe(null)
  })
})

describe('goToTargets', () => {
  const conversations = [
    conversation({ id: 'g1', name: 'Launch Team', lastActivityAt: 300 }),
    conversation({ id: chatId(me.id, 'u2'), kind: 'dm', name: 'Grace Hopper', lastActivityAt: 200 }),
    conversation({ id: 'g2', name: 'Lunch Area', lastActivityAt: 100 })
  ]
  const people = [person('u3', 'Alan Turing'), person('u2', 'Grace Hopper'), person(me.id, me.name), person('u4', 'Katherine Johnson')]

  it('offers the conversations in the order given (recent first), then the people who have no chat with the user', () => {
    expect(goToTargets(conversations, people, me.id, '').map(targetName)).toEqual(['Launch Team', 'Grace Hopper', 'Lunch Area', 'Alan Turing', 'Katherine Johnson'])
    expect(goToTargets(conversations, people, me.id, '').map((target) => target.kind)).toEqual(['conversation', 'conversation', 'conversation', 'person', 'person'])
  })

  it('puts what the words find before what only the letters find, each as recent first', () => {
    // "la" is in Launch Team's and Alan Turing's names, and only strung through Lunch Area's.
    expect(goToTargets(conversations, people, me.id, 'la').map(targetName)).toEqual(['Launch Team', 'Alan Turing', 'Lunch Area'])
  })

  it('offers no more than the limit', () => {
    expect(goToTargets(conversations, people, me.id, '', 2).map(targetName)).toEqual(['Launch Team', 'Grace Hopper'])
  })
})
