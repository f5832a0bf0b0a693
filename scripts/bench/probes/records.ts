// What the probes loaded into the service's and the apps' processes record, and where they hand it
// over. Shared by the probes and the driver; importing it has no effect.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

/** Every text the bench sends starts so; the probes record nothing else (seeding is not timed). */
export const BENCH_TEXT_PREFIX = 'bench '

/** Unix epoch in milliseconds at high resolution: one clock for every Node process of the run. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now()
}

/** Where a probe: the service's publish, the app's receipt, the host's event frame sent to the page. */
export type ProbePoint = 'published' | 'delivered' | 'bridged'

/** `[when, where, text, channel]`: a tuple, so that recording stays an array push. */
export type ProbeRecord = [at: number, point: ProbePoint, text: string, channel: string]

/** The probe of process `pid` writes its records here when it receives SIGUSR2. */
export function probeOutputPath(pid: number): string {
  return join(tmpdir(), 'parley-bench-probes', `${pid}.json`)
}
