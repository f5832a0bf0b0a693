import { describe, expect, it } from 'vitest'
import { readPastedLink } from './pasted-link'

describe('readPastedLink', () => {
  it('cuts the path of an http(s) link at its slashes, on any origin, around spaces and one final slash', () => {
    expect(readPastedLink('http://127.0.0.1:8080/contact/12/Ab3dE6gH')).toMatchObject({ segments: ['contact', '12', 'Ab3dE6gH'], hasQueryOrFragment: false })
    expect(readPastedLink('  https://chat.example.test/join_group/7/xyz/ \n')).toMatchObject({ segments: ['join_group', '7', 'xyz'], hasQueryOrFragment: false })
    expect(readPastedLink('https://chat.example.test/a/b//')).toMatchObject({ segments: ['a', 'b', ''], hasQueryOrFragment: false })
    expect(readPastedLink('https://chat.example.test')).toMatchObject({ segments: [], hasQueryOrFragment: false })
  })

  it('says where the link leads, as an origin to compare and a host to show', () => {
    expect(readPastedLink('HTTPS://user@Chat.Example.TEST:443/join_group/7/xyz')).toMatchObject({ origin: 'https://chat.example.test', host: 'chat.example.test' })
    expect(readPastedLink('http://127.0.0.1:8080/contact/12/Ab3dE6gH')).toMatchObject({ origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' })
    expect(readPastedLink('https://еvil.example/join_group/7/xyz')).toMatchObject({ host: 'xn--vil-qdd.example' })
  })

  it('says when a query or a fragment follows the path', () => {
    expect(readPastedLink('http://host/contact/12/Ab3dE6gH?x=1')).toMatchObject({ segments: ['contact', '12', 'Ab3dE6gH'], hasQueryOrFragment: true })
    expect(readPastedLink('http://host/contact/12/Ab3dE6gH#top')).toMatchObject({ segments: ['contact', '12', 'Ab3dE6gH'], hasQueryOrFragment: true })
  })

  it('takes no text that is not an http(s) link', () => {
    for (const text of ['', 'contact/12/Ab3dE6gH', '/contact/12/Ab3dE6gH', 'ftp://host/contact/12/Ab3dE6gH', 'javascript:alert(1)//join_group/42/Ab3dEf9H']) {
      expect(readPastedLink(text), text).toBeNull()
    }
  })
})
