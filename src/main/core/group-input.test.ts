import { describe, expect, it } from 'vitest'
import { MAX_GROUP_DESCRIPTION, MAX_GROUP_NAME, MAX_JOIN_ANSWER, MAX_JOIN_QUESTION, MAX_NICKNAME } from '@shared/limits'
import {
  checkedCandidates,
  checkedChanges,
  checkedJoinAnswer,
  checkedNewGroup,
  checkedNickname,
  parseShareLink,
  shareLinkText
} from './group-input'

/** The AppError a check throws, for its code and words. */
function refusal(check: () => unknown): { code: string; message: string } {
  try {
    check()
  } catch (error) {
    return error as { code: string; message: string }
  }
  throw new Error('the check accepted what it should refuse')
}

describe('parseShareLink', () => {
  it('reads the group, token and origin of a share link, trimmed, with or without a final slash', () => {
    expect(parseShareLink('http://127.0.0.1:8080/join_group/42/Ab3dEf9H')).toEqual({
      groupId: '42',
      token: 'Ab3dEf9H',
      origin: 'http://127.0.0.1:8080',
      host: '127.0.0.1:8080'
    })
    expect(parseShareLink('  https://chat.example.test/join_group/7/xyzXYZ12/ \n')).toEqual({
      groupId: '7',
      token: 'xyzXYZ12',
      origin: 'https://chat.example.test',
      host: 'chat.example.test'
    })
  })

  it('writes a link as the service does, whatever the pasted one looked like', () => {
    const link = parseShareLink(' HTTPS://someone@Chat.Example.TEST:443/join_group/7/xyzXYZ12/ ')
    expect(link && shareLinkText(link)).toBe('https://chat.example.test/join_group/7/xyzXYZ12')
  })

  it('refuses text that is not a share link', () => {
    for (const text of [
      '',
      'join_group/42/Ab3dEf9H',
      'http://127.0.0.1:8080/contact/42/Ab3dEf9H',
      'http://127.0.0.1:8080/join_group/42',
      'http://127.0.0.1:8080/join_group/forty/Ab3dEf9H',
      'http://127.0.0.1:8080/join_group/42/Ab3d-f9H',
      'http://127.0.0.1:8080/join_group/42/Ab3dEf9H/more',
      'ftp://127.0.0.1/join_group/42/Ab3dEf9H',
      'javascript:alert(1)//join_group/42/Ab3dEf9H'
    ]) {
      expect(parseShareLink(text), text).toBeNull()
    }
  })
})

describe('a new group and its settings', () => {
  it('trims the name and description, and refuses an empty name or one too long, counting code points', () => {
    expect(checkedNewGroup({ name: '  Lunch  ', description: ' Noon ', imageUrl: null, share: true })).toEqual({
      name: 'Lunch',
      description: 'Noon',
      imageUrl: null,
      share: true
    })
    expect(refusal(() => checkedNewGroup({ name: '   ', description: '', imageUrl: null, share: false }))).toMatchObject({
      code: 'VALIDATION',
      message: 'Give the group a name.'
    })
    // 140 emoji are 280 UTF-16 units, and still a name of 140 characters.
    expect(checkedNewGroup({ name: '🍜'.repeat(MAX_GROUP_NAME), description: '', imageUrl: null, share: false }).name).toHaveLength(280)
    expect(refusal(() => checkedNewGroup({ name: 'a'.repeat(MAX_GROUP_NAME + 1), description: '', imageUrl: null, share: false })).message).toBe(
      'A group name is at most 140 characters.'
    )
    expect(refusal(() => checkedNewGroup({ name: 'Lunch', description: 'd'.repeat(MAX_GROUP_DESCRIPTION + 1), imageUrl: null, share: false })).message).toBe(
      'A description is at most 255 characters.'
    )
  })

  it('checks only the settings being changed, and a join question of 1–200 characters, or none', () => {
    expect(checkedChanges({ type: 'closed' })).toEqual({ type: 'closed' })
    expect(checkedChanges({ joinQuestion: null, requiresApproval: true })).toEqual({ joinQuestion: null, requiresApproval: true })
    expect(checkedChanges({ name: ' New ', joinQuestion: ' Why? ' })).toEqual({ name: 'New', joinQuestion: 'Why?' })
    expect(refusal(() => checkedChanges({ joinQuestion: '  ' })).message).toBe('Write the question to ask, or ask none.')
    expect(refusal(() => checkedChanges({ joinQuestion: 'q'.repeat(MAX_JOIN_QUESTION + 1) })).message).toBe('A join question is at most 200 characters.')
    expect(refusal(() => checkedChanges({ name: '' })).message).toBe('Give the group a name.')
  })
})

describe('nicknames, answers and people to add', () => {
  it('takes a nickname of 1–50 characters', () => {
    expect(checkedNickname(' Gracie ')).toBe('Gracie')
    expect(refusal(() => checkedNickname(' ')).message).toBe('A nickname cannot be empty.')
    expect(refusal(() => checkedNickname('n'.repeat(MAX_NICKNAME + 1))).message).toBe('A nickname is at most 50 characters.')
  })

  it('reads an empty answer as none, and refuses one over 500 characters', () => {
    expect(checkedJoinAnswer(null)).toBeNull()
    expect(checkedJoinAnswer('   ')).toBeNull()
    expect(checkedJoinAnswer(' I cook ')).toBe('I cook')
    expect(refusal(() => checkedJoinAnswer('a'.repeat(MAX_JOIN_ANSWER + 1))).message).toBe('An answer is at most 500 characters.')
  })

  it('wants at least one person, each with a nickname and a non-empty phone or e-mail', () => {
    expect(refusal(() => checkedCandidates([]))).toMatchObject({ code: 'VALIDATION', message: 'Choose at least one person to add.' })
    expect(checkedCandidates([{ nickname: ' Alan ', userId: '7' }, { nickname: 'Bo', phone: ' +1 555 ' }, { nickname: 'Cy', email: ' cy@x.test ' }])).toEqual([
      { nickname: 'Alan', userId: '7' },
      { nickname: 'Bo', phone: '+1 555' },
      { nickname: 'Cy', email: 'cy@x.test' }
    ])
    expect(refusal(() => checkedCandidates([{ nickname: '', userId: '7' }])).message).toBe('A nickname cannot be empty.')
    expect(refusal(() => checkedCandidates([{ nickname: 'Bo', phone: ' ' }])).message).toBe('Give a phone number for Bo.')
    expect(refusal(() => checkedCandidates([{ nickname: 'Cy', email: '' }])).message).toBe('Give an e-mail address for Cy.')
  })

  it('cuts a nickname longer than a group allows to 50 code points, never splitting an emoji, rather than refusing the batch', () => {
    const longName = `${'Ada '.repeat(20)}Lovelace`
    const [cut, emoji] = checkedCandidates([
      { nickname: longName, userId: '7' },
      { nickname: `${'🍜'.repeat(MAX_NICKNAME - 1)}👩‍👩‍👧`, userId: '8' }
    ])
    expect(cut).toEqual({ nickname: longName.slice(0, MAX_NICKNAME).trim(), userId: '7' })
    expect(emoji?.nickname).toBe('🍜'.repeat(MAX_NICKNAME - 1))
  })
})
