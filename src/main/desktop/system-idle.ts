// The desktop's sense of idleness: the system's own idle time, and its lock and sleep events
// (https://www.electronjs.org/docs/latest/api/power-monitor).
import { powerMonitor } from 'electron'
import type { IdleSource } from '../core/ports'

export const systemIdle: IdleSource = {
  idleSeconds: () => powerMonitor.getSystemIdleTime(),
  // Input anywhere on the computer already resets the system's idle time.
  noteActivity: () => undefined
}

/** Tells `away` when the user plainly stepped away (lock, sleep) and `back` when they return. */
export function watchPowerEvents(listener: { away(): void; back(): void }): void {
  powerMonitor.on('lock-screen', () => listener.away())
  powerMonitor.on('suspend', () => listener.away())
  powerMonitor.on('unlock-screen', () => listener.back())
  powerMonitor.on('resume', () => listener.back())
}
