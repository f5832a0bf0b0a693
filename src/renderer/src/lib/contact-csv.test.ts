import { describe, expect, it } from 'vitest'
import { readContactCsv } from './contact-csv'

describe('readContactCsv', () => {
  it('reads name and phone columns, without a header row', () => {
    expect(readContactCsv('Grace Hopper,+1 555 0100 200\nAlan Turing,(020) 7946-0958\n')).toEqual({
      cards: [
        { name: 'Grace Hopper', phone: '+15550100200' },
        { name: 'Alan Turing', phone: '02079460958' }
      ],
      unread: []
    })
  })

  it('skips a header row, and follows its columns when it names them in another order', () => {
    expect(readContactCsv('Name,Phone\nGrace,5550100200').cards).toEqual([{ name: 'Grace', phone: '5550100200' }])
    expect(readContactCsv('Phone number;Full name\r\n5550100200;Grace\r\n').cards).toEqual([{ name: 'Grace', phone: '5550100200' }])
  })

  it('reads semicolons, quotes with doubled quotes inside, a delimiter and a line break inside quotes, and a BOM', () => {
    const csv = '\uFEFF"Hopper; Grace ""Amazing""";"555 0100 200"\n"Ada\nLovelace";5550100300\n\n'
    expect(readContactCsv(csv)).toEqual({
      cards: [
        { name: 'Hopper; Grace "Amazing"', phone: '5550100200' },
        { name: 'Ada\nLovelace', phone: '5550100300' }
      ],
      unread: []
    })
  })

  it('reports each row it cannot read by its line, and keeps the others', () => {
    const { cards, unread } = readContactCsv('name,phone\nGrace,5550100200\n,5550100300\nAlan,\nBob,call me\nEve,12\nCarol,5550100400\n')
    expect(cards).toEqual([
      { name: 'Grace', phone: '5550100200' },
      { name: 'Carol', phone: '5550100400' }
    ])
    expect(unread).toEqual([
      { line: 3, text: ',5550100300', reason: 'it has no name' },
      { line: 4, text: 'Alan,', reason: 'it has no phone number' },
      { line: 5, text: 'Bob,call me', reason: '“call me” is not a phone number' },
      { line: 6, text: 'Eve,12', reason: '“12” is not a phone number' }
    ])
  })

  it('finds nothing in an empty file', () => {
    expect(readContactCsv('')).toEqual({ cards: [], unread: [] })
  })
})
