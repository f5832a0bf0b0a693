import { describe, expect, it } from 'vitest'
import { refusedField } from './profile'

describe('refusedField', () => {
  it.each([
    [['email: already in use by another account'], 'email'],
    [['email: must be an e-mail address'], 'email'],
    [['avatar_url: must be a URL of the image service'], 'avatar'],
    [['name: must be 1 to 64 characters'], 'name'],
    [['bio: must be at most 500 characters'], 'bio'],
    [['Request body must be a JSON object', 'bio: must be at most 500 characters'], 'bio']
  ] as const)('reads %j as about the %s', (errors, field) => {
    expect(refusedField(errors)).toBe(field)
  })

  it('names no field when the text names none, or only a word that contains one', () => {
    expect(refusedField(['Request body must be a JSON object'])).toBeNull()
    expect(refusedField(['nickname: too long'])).toBeNull()
    expect(refusedField([])).toBeNull()
  })
})
