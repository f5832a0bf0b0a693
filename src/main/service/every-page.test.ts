import { describe, expect, it } from 'vitest'
import { everyPage, LIST_PAGE_SIZE } from './every-page'

describe('everyPage', () => {
  it('reads pages until one is not full, and answers their items in order', async () => {
    const asked: number[] = []
    const sizes = [LIST_PAGE_SIZE, LIST_PAGE_SIZE, 3]
    const all = await everyPage(async (page) => {
      asked.push(page)
      return Array.from({ length: sizes[page - 1] ?? 0 }, (_, index) => `${page}.${index}`)
    })
    expect(asked).toEqual([1, 2, 3])
    expect(all).toHaveLength(2 * LIST_PAGE_SIZE + 3)
    expect(all.slice(LIST_PAGE_SIZE - 1, LIST_PAGE_SIZE + 1)).toEqual([`1.${LIST_PAGE_SIZE - 1}`, '2.0'])
  })

  it('asks once more after a full last page, which answers empty', async () => {
    const asked: number[] = []
    const all = await everyPage(async (page) => {
      asked.push(page)
      return page === 1 ? Array.from({ length: LIST_PAGE_SIZE }, () => 'x') : []
    })
    expect(asked).toEqual([1, 2])
    expect(all).toHaveLength(LIST_PAGE_SIZE)
  })
})
