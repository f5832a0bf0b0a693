import { describe, expect, it } from 'vitest'
import { parseContactLink } from './contact-link'

describe('parseContactLink', () => {
  it('reads the user and token of a contact link, around spaces and a trailing slash', () => {
    expect(parseContactLink('http://127.0.0.1:8080/contact/12/Ab3dE6gH')).toEqual({ userId: '12', token: 'Ab3dE6gH', origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' })
    expect(parseContactLink('  https://chat.example/contact/987654321/zzzzzzzz/\n')).toEqual({
      userId: '987654321',
      token: 'zzzzzzzz',
      origin: 'https://chat.example',
      host: 'chat.example'
    })
  })

  it('takes nothing else for a contact link', () => {
    for (const text of [
      '',
      'Ab3dE6gH',
      '12/Ab3dE6gH',
      'contact/12/Ab3dE6gH',
      'ftp://host/contact/12/Ab3dE6gH',
      'http://host/contacts/12/Ab3dE6gH',
      'http://host/contact/12',
      'http://host/contact/012/Ab3dE6gH',
      'http://host/contact/x1/Ab3dE6gH',
      'http://host/contact/12/Ab3-E6gH',
      'http://host/contact/12/Ab3dE6gH/more',
      'http://host/prefix/contact/12/Ab3dE6gH',
      'http://host/contact/12/Ab3dE6gH?x=1',
      'http://host/contact/12/Ab3dE6gH#top'
    ]) {
      expect(parseContactLink(text), text).toBeNull()
    }
  })
})
