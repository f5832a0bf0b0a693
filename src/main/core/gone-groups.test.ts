import { describe, expect, it } from 'vitest'
import { AppError } from './app-error'
import { GoneGroups, watchingForGoneGroups } from './gone-groups'

const notFound = (): AppError => new AppError('NOT_FOUND', 'That conversation or message no longer exists.')

/** A list holding group 7 and a chat, and a G4 that answers as told. */
function world(readGroup: () => Promise<unknown>) {
  const listed = new Set(['7', '1+2'])
  const gone: string[] = []
  let reads = 0
  const goneGroups = new GoneGroups({
    isListed: (id) => listed.has(id),
    readGroup: () => {
      reads++
      return readGroup()
    },
    gone: (id) => {
      listed.delete(id)
      gone.push(id)
    }
  })
  return { goneGroups, gone, reads: () => reads }
}

/** Lets the asking started by a failed call finish. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

describe('GoneGroups', () => {
  it('takes a listed group out when a call on it met 404 and so does the group itself', async () => {
    const { goneGroups, gone } = world(() => Promise.reject(notFound()))
    const service = watchingForGoneGroups({ sendMessage: (_id: string) => Promise.reject(notFound()) }, goneGroups)
    await expect(service.sendMessage('7')).rejects.toThrow('no longer exists')
    await settle()
    expect(gone).toEqual(['7'])
  })

  it('keeps a group that still answers: the 404 was about one of its messages', async () => {
    const { goneGroups, gone, reads } = world(() => Promise.resolve({}))
    const service = watchingForGoneGroups({ react: (_id: string, _messageId: string) => Promise.reject(notFound()) }, goneGroups)
    await expect(service.react('7', '99')).rejects.toThrow()
    await settle()
    expect(reads()).toBe(1)
    expect(gone).toEqual([])
  })

  it('keeps a group the service could not be asked about', async () => {
    const { goneGroups, gone } = world(() => Promise.reject(new AppError('NETWORK', 'Cannot reach the service.')))
    await goneGroups.suspect('7')
    expect(gone).toEqual([])
  })

  it('asks nothing for a chat, a group not listed, or a failure other than 404', async () => {
    const { goneGroups, reads } = world(() => Promise.reject(notFound()))
    const service = watchingForGoneGroups(
      {
        open: (_id: string) => Promise.reject(notFound()),
        mute: (_id: string) => Promise.reject(new AppError('FORBIDDEN', 'No.'))
      },
      goneGroups
    )
    await expect(service.open('1+2')).rejects.toThrow()
    await expect(service.open('8')).rejects.toThrow()
    await expect(service.mute('7')).rejects.toThrow()
    await settle()
    expect(reads()).toBe(0)
  })

  it('asks once for a burst of failures on the same group', async () => {
    const { goneGroups, gone, reads } = world(() => Promise.reject(notFound()))
    await Promise.all([goneGroups.suspect('7'), goneGroups.suspect('7'), goneGroups.suspect('7')])
    expect(reads()).toBe(1)
    expect(gone).toEqual(['7'])
  })

  it('passes answers through untouched', async () => {
    const { goneGroups } = world(() => Promise.resolve({}))
    const service = watchingForGoneGroups({ latest: (id: string) => Promise.resolve(`page of ${id}`) }, goneGroups)
    await expect(service.latest('7')).resolves.toBe('page of 7')
  })
})
