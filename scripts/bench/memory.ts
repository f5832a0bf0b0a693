// Memory: Ada's app, freshly started, opens each seeded conversation in turn (each until its newest
// message is in view). Then the page's JS heap after a garbage collection (CDP
// HeapProfiler.collectGarbage, then Runtime.getHeapUsage's used size), and the resident memory of
// the app's process (VmRSS, after a global.gc() in the process through its probe). The same two
// are read before the visits, as the baseline.
import { spawn } from 'node:child_process'
import type { CDPSession } from 'playwright-core'
import { conversation } from '../../tests/e2e/support'
import { median, type PartResult } from './figures'
import { ADA_DATA_DIR } from './cold-start'
import { timeOpen } from './open-watch'
import { collectProbe, residentMb, ROOT } from './processes'
import { seededGroupName, seededGroupText } from './seed'
import { openApp, sleep, type Run } from './session'

const MB = 2 ** 20

async function heapAfterGc(session: CDPSession): Promise<number> {
  await session.send('HeapProfiler.collectGarbage')
  const usage = await session.send('Runtime.getHeapUsage')
  return usage.usedSize / MB
}

async function rssAfterGc(pid: number): Promise<number> {
  await collectProbe(pid)
  return residentMb(pid)
}

/** The floor under the app's figure: a bare Node process, as the built host runs in, that loads nothing. */
async function bareNodeRssMb(): Promise<number> {
  const child = spawn(process.execPath, ['--expose-gc', '-e', 'globalThis.gc(); setInterval(() => {}, 1000)'], { cwd: ROOT, stdio: 'ignore' })
  try {
    await sleep(1500)
    if (child.pid === undefined) throw new Error('the bare Node process has no pid')
    return residentMb(child.pid)
  } finally {
    child.kill('SIGKILL')
  }
}

export async function measureMemory(run: Run, options: { conversations: number; messagesPerConversation: number }): Promise<PartResult> {
  const opened = await openApp(run, ADA_DATA_DIR)
  const { page, app } = opened
  try {
    const names = Array.from({ length: options.conversations }, (_, index) => seededGroupName(index))
    await conversation(page, names[names.length - 1] as string).waitFor()
    // Let start-up's own work finish first, so that the baseline is the app at rest.
    await sleep(2000)
    const session = await opened.context.newCDPSession(page)
    await session.send('HeapProfiler.enable')
    const heapBefore = await heapAfterGc(session)
    const rssBefore = await rssAfterGc(app.pid)
    console.log(`memory: Ada's app (freshly started) opens each of the ${names.length} seeded conversations of ${options.messagesPerConversation} messages in turn`)
    const bareRss = await bareNodeRssMb()
    console.log(`  before: page heap ${heapBefore.toFixed(1)} MB, app process RSS ${rssBefore.toFixed(1)} MB (a bare \`node\` process: ${bareRss.toFixed(1)} MB)`)
    const opens: number[] = []
    for (const name of names) {
      opens.push(await timeOpen(page, () => conversation(page, name).click(), seededGroupText(name, options.messagesPerConversation - 1)))
    }
    const heap = await heapAfterGc(session)
    const rss = await rssAfterGc(app.pid)
    console.log(`  opening each took ${median(opens).toFixed(1)} ms at the median, ${Math.max(...opens).toFixed(1)} ms at most`)
    console.log(`  after:  page heap ${heap.toFixed(1)} MB (used size after CDP collectGarbage), app process RSS ${rss.toFixed(1)} MB (VmRSS after global.gc())`)
    await session.detach()
    return {
      figures: { heap_mb_100x1000: heap, main_rss_mb_100x1000: rss },
      baselines: {
        heap_mb_100x1000: `before the visits ${heapBefore.toFixed(1)}`,
        main_rss_mb_100x1000: `before the visits ${rssBefore.toFixed(1)}; bare node ${bareRss.toFixed(1)}`
      }
    }
  } finally {
    await opened.close()
  }
}
