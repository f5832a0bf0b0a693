import { describe, expect, it } from 'vitest'
import { messageBody } from './outgoing-message'
import { pageQuery } from './paging'

describe('outgoing message bodies', () => {
  it('write each attachment kind the way the service takes it', () => {
    expect(
      messageBody({
        sourceGuid: 'g',
        text: 'look',
        attachments: [
          { type: 'image', url: 'http://127.0.0.1:8080/image/i/abc' },
          { type: 'location', lat: '1.5', lng: '-2', name: 'Pier' },
          { type: 'emoji', placeholder: '\uFFFD', charmap: [[1, 2]] }
        ]
      })
    ).toEqual({
      source_guid: 'g',
      text: 'look',
      attachments: [
        { type: 'image', url: 'http://127.0.0.1:8080/image/i/abc' },
        { type: 'location', lat: '1.5', lng: '-2', name: 'Pier' },
        { type: 'emoji', placeholder: '\uFFFD', charmap: [[1, 2]] }
      ]
    })
    expect(messageBody({ sourceGuid: 'g', text: 'plain' }).attachments).toEqual([])
  })
})

describe('page queries', () => {
  it('send the one anchor given, under its own name', () => {
    expect(pageQuery({})).toEqual({ before_id: undefined, since_id: undefined, after_id: undefined, limit: undefined })
    expect(pageQuery({ anchor: { before: '9' }, limit: 5 })).toMatchObject({ before_id: '9', limit: 5 })
    expect(pageQuery({ anchor: { since: '9' } })).toMatchObject({ since_id: '9', before_id: undefined })
    expect(pageQuery({ anchor: { after: '9' } })).toMatchObject({ after_id: '9' })
  })
})
