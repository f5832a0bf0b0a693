import type { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ElectronNotifier } from './notifier'

const electron = vi.hoisted(() => ({ supported: true, created: [] as unknown[] }))

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events')
  class Notification extends Emitter {
    static isSupported = () => electron.supported
    shown = false
    constructor(readonly options: { title: string; body: string }) {
      super()
      electron.created.push(this)
    }
    show(): void {
      this.shown = true
    }
  }
  return { Notification }
})

type FakeNotification = EventEmitter & { options: { title: string; body: string }; shown: boolean }
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

beforeEach(() => {
  electron.supported = true
  electron.created.length = 0
})

describe('ElectronNotifier', () => {
  it('shows a native notification whose click reaches onClick', () => {
    const onClick = vi.fn()
    new ElectronNotifier(log).show({ key: 'g1', conversationId: 'g1', title: 'Ada in General', body: 'Lunch?', silent: false, onClick })
    const notification = electron.created[0] as FakeNotification
    expect(notification.options).toEqual({ title: 'Ada in General', body: 'Lunch?', silent: false })
    expect(notification.shown).toBe(true)
    notification.emit('click')
    expect(onClick).toHaveBeenCalledTimes(1)
  })

  it('logs a notification the system could not show', () => {
    const warn = vi.fn()
    new ElectronNotifier({ ...log, warn }).show({ key: 'g1', conversationId: 'g1', title: 't', body: 'b', silent: false, onClick: vi.fn() })
    ;(electron.created[0] as FakeNotification).emit('failed', {}, 'no notification daemon')
    expect(warn).toHaveBeenCalledWith('a notification could not be shown', 'no notification daemon')
  })

  it('shows nothing where the system has no notifications', () => {
    electron.supported = false
    new ElectronNotifier(log).show({ key: 'g1', conversationId: 'g1', title: 't', body: 'b', silent: false, onClick: vi.fn() })
    expect(electron.created).toHaveLength(0)
  })
})
