import { describe, expect, it } from 'vitest'
import { MemoryPreferences } from '../../../tests/support/memory-platform'
import type { PendingJoin } from '@shared/groups'
import { PendingJoins } from './pending-joins'

const request = (groupId: string, answer: string | null = null): PendingJoin => ({
  groupId,
  link: `http://127.0.0.1:8080/join_group/${groupId}/Abcd1234`,
  question: 'Why?',
  answer,
  requestedAt: 1_700_000_000
})

describe('PendingJoins', () => {
  it('keeps each account’s requests apart, one per group, the latest replacing the one before', () => {
    const preferences = new MemoryPreferences()
    let account = 'ada'
    const pending = new PendingJoins(preferences, () => account)
    pending.remember(request('1'))
    pending.remember(request('2'))
    pending.remember(request('1', 'Again'))
    account = 'grace'
    expect(pending.list(() => false)).toEqual([])
    account = 'ada'
    expect(pending.list(() => false)).toEqual([request('2'), request('1', 'Again')])
  })

  it('forgets a request once its group is in the list, and when the user lets it go', () => {
    const preferences = new MemoryPreferences()
    const pending = new PendingJoins(preferences, () => 'ada')
    pending.remember(request('1'))
    pending.remember(request('2'))
    pending.remember(request('3'))
    expect(pending.list((groupId) => groupId === '2')).toEqual([request('1'), request('3')])
    pending.forget('3')
    expect(preferences.get('pendingJoins')).toEqual({ ada: [request('1')] })
  })
})
