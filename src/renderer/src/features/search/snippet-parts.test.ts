import { describe, expect, it } from 'vitest'
import { snippetParts } from './snippet-parts'

describe('snippetParts', () => {
  it('splits the text around each mark, in order', () => {
    expect(snippetParts({ text: 'we went hiking at the café', marks: [{ start: 8, end: 14 }, { start: 22, end: 26 }] })).toEqual([
      { text: 'we went ', marked: false },
      { text: 'hiking', marked: true },
      { text: ' at the ', marked: false },
      { text: 'café', marked: true }
    ])
  })

  it('keeps the whole text plain when nothing is marked', () => {
    expect(snippetParts({ text: 'hello', marks: [] })).toEqual([{ text: 'hello', marked: false }])
  })

  it('marks a match at either end without empty pieces', () => {
    expect(snippetParts({ text: '爬山', marks: [{ start: 0, end: 2 }] })).toEqual([{ text: '爬山', marked: true }])
  })

  it('drops marks that run backwards, overlap, or fall outside the text, and keeps every character', () => {
    const parts = snippetParts({
      text: 'abcdef',
      marks: [
        { start: 1, end: 3 },
        { start: 2, end: 4 },
        { start: 5, end: 4 },
        { start: 4, end: 99 },
        { start: 4, end: 5 }
      ]
    })
    expect(parts).toEqual([
      { text: 'a', marked: false },
      { text: 'bc', marked: true },
      { text: 'd', marked: false },
      { text: 'e', marked: true },
      { text: 'f', marked: false }
    ])
    expect(parts.map((part) => part.text).join('')).toBe('abcdef')
  })

  it('keeps markup in a message as text', () => {
    const parts = snippetParts({ text: '<img src=x onerror=alert(1)> hi', marks: [{ start: 29, end: 31 }] })
    expect(parts[0]).toEqual({ text: '<img src=x onerror=alert(1)> ', marked: false })
  })
})
