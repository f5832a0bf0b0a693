import { describe, expect, it } from 'vitest'
import { FakeApi, me } from './testing/fake-api'
import { startApp } from './testing/start-app'

function signedIn(): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me })
}

describe('app start', () => {
  it('registers every listener before telling main it is ready', async () => {
    const fake = signedIn()
    const listening: number[] = []
    fake.handle('app:ready', () => {
      listening.push(fake.listenerCount('session:changed'), fake.listenerCount('messages:received'), fake.listenerCount('push:status'))
      return { ok: true, value: null }
    })
    await startApp(fake)

    expect(listening).toEqual([1, 1, 1])
    expect(fake.calls[0]?.channel).toBe('app:ready')
  })
})
