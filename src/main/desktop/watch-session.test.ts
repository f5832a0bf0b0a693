import { describe, expect, it, vi } from 'vitest'
import type { EventSink } from '../core/ports'
import { watchSession } from './watch-session'

const ME = { id: 'u1', name: 'Ada', avatarUrl: null }

function recordingSink(): EventSink & { emitted: [string, unknown][] } {
  const emitted: [string, unknown][] = []
  return {
    emitted,
    emit: (event, payload) => {
      emitted.push([event, payload])
    }
  }
}

describe('watchSession', () => {
  it('passes every event on unchanged', () => {
    const sink = recordingSink()
    const watched = watchSession(sink, vi.fn())
    watched.emit('push:status', 'connected')
    watched.emit('session:changed', { status: 'signedOut', notice: null })
    expect(sink.emitted).toEqual([
      ['push:status', 'connected'],
      ['session:changed', { status: 'signedOut', notice: null }]
    ])
  })

  it('says whether someone is signed in each time the session changes, and only then', () => {
    const signedIn = vi.fn()
    const watched = watchSession(recordingSink(), signedIn)
    watched.emit('push:status', 'connected')
    watched.emit('session:changed', { status: 'signedIn', me: ME })
    watched.emit('session:changed', { status: 'verifying', challenge: { smsHint: null } })
    watched.emit('session:changed', { status: 'signedOut', notice: 'Your session ended.' })
    expect(signedIn.mock.calls).toEqual([[true], [false], [false]])
  })
})
