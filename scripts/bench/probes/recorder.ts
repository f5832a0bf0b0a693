// The part every probe shares: records kept in memory while measuring (an array push, nothing
// written), handed over as a file when the driver sends SIGUSR2. Before writing, the process
// collects its garbage when started with --expose-gc, so that the driver reads its resident
// memory right after the hand-over with nothing collectable left.
import { subscribe } from 'node:diagnostics_channel'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { BENCH_TEXT_PREFIX, epochNow, probeOutputPath, type ProbePoint, type ProbeRecord } from './records'

export function startRecorder(): ProbeRecord[] {
  const records: ProbeRecord[] = []
  process.on('SIGUSR2', () => {
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const path = probeOutputPath(process.pid)
    mkdirSync(dirname(path), { recursive: true })
    // Written whole, then renamed: the driver never reads half a file.
    writeFileSync(`${path}.partial`, JSON.stringify(records.splice(0)))
    renameSync(`${path}.partial`, path)
  })
  return records
}

/**
 * Records, as `point`, each bench message's `line.create` published on the diagnostics channel
 * `name` as `{channel, data}` (the service's publish, the app's receipt).
 */
export function recordPushes(records: ProbeRecord[], name: string, point: ProbePoint): void {
  subscribe(name, (message) => {
    const at = epochNow()
    const { channel, data } = message as { channel: string; data: unknown }
    const text = benchTextOfPush(data)
    if (text !== null) records.push([at, point, text, channel])
  })
}

/** The text of a pushed message, if the data is a bench message's `line.create`. */
export function benchTextOfPush(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null
  const { type, subject } = data as { type?: unknown; subject?: unknown }
  if (type !== 'line.create' || typeof subject !== 'object' || subject === null) return null
  const text = (subject as { text?: unknown }).text
  return typeof text === 'string' && text.startsWith(BENCH_TEXT_PREFIX) ? text : null
}
