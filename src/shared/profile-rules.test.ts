import { describe, expect, it } from 'vitest'
import { newPasswordProblem, profileProblems } from './profile-rules'

describe('profileProblems', () => {
  it('accepts a name of 1 to 64 characters, counting an emoji as one, an e-mail with an @ and a bio up to 500', () => {
    expect(profileProblems({ name: 'A', email: 'a@b', bio: '' })).toEqual({})
    expect(profileProblems({ name: '😀'.repeat(64), bio: '😀'.repeat(500) })).toEqual({})
    expect(profileProblems({})).toEqual({})
  })

  it('names each field it refuses', () => {
    expect(profileProblems({ name: '  ', email: 'ada.example.test', bio: 'x'.repeat(501) })).toEqual({
      name: 'Write your name.',
      email: 'Write an e-mail address, with an @ in it.',
      bio: 'Keep your bio to 500 characters.'
    })
    expect(profileProblems({ name: 'x'.repeat(65) })).toEqual({ name: 'Keep your name to 64 characters.' })
  })
})

describe('newPasswordProblem', () => {
  it('wants at least 8 characters, an emoji counting as one', () => {
    expect(newPasswordProblem('1234567')).toBe('Use at least 8 characters.')
    expect(newPasswordProblem('😀'.repeat(7))).toBe('Use at least 8 characters.')
    expect(newPasswordProblem('12345678')).toBeNull()
  })
})
