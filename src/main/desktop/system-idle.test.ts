import type { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { systemIdle, watchPowerEvents } from './system-idle'

const electron = vi.hoisted(() => ({ powerMonitor: null as (EventEmitter & { idleSeconds: number }) | null }))

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events')
  const powerMonitor = Object.assign(new Emitter(), {
    idleSeconds: 0,
    getSystemIdleTime: () => powerMonitor.idleSeconds
  })
  electron.powerMonitor = powerMonitor
  return { powerMonitor }
})

function powerMonitor(): EventEmitter & { idleSeconds: number } {
  if (electron.powerMonitor === null) throw new Error('electron was not mocked')
  return electron.powerMonitor
}

function watch() {
  const listener = { away: vi.fn(), back: vi.fn() }
  watchPowerEvents(listener)
  return listener
}

beforeEach(() => {
  powerMonitor().removeAllListeners()
  powerMonitor().idleSeconds = 0
})

describe('systemIdle', () => {
  it("reads the system's idle time", () => {
    powerMonitor().idleSeconds = 312
    expect(systemIdle.idleSeconds()).toBe(312)
  })
})

describe('watchPowerEvents', () => {
  it('says the user is away when the screen locks', () => {
    const listener = watch()
    powerMonitor().emit('lock-screen')
    expect(listener.away).toHaveBeenCalledTimes(1)
    expect(listener.back).not.toHaveBeenCalled()
  })

  it('says the user is away when the computer goes to sleep', () => {
    const listener = watch()
    powerMonitor().emit('suspend')
    expect(listener.away).toHaveBeenCalledTimes(1)
  })

  it('says the user is back when the screen unlocks', () => {
    const listener = watch()
    powerMonitor().emit('unlock-screen')
    expect(listener.back).toHaveBeenCalledTimes(1)
    expect(listener.away).not.toHaveBeenCalled()
  })

  it('says the user is back when the computer wakes, so a mute that ended in sleep is seen to end', () => {
    const listener = watch()
    powerMonitor().emit('resume')
    expect(listener.back).toHaveBeenCalledTimes(1)
  })

  it('reacts to nothing else the power monitor says', () => {
    const listener = watch()
    powerMonitor().emit('on-battery')
    powerMonitor().emit('shutdown')
    expect(listener.away).not.toHaveBeenCalled()
    expect(listener.back).not.toHaveBeenCalled()
  })
})
