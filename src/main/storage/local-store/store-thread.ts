// Main's end of a store's worker thread (store-worker.ts): requests posted in order and answered in
// that order, each a promise. A thread that dies (its native addon crashed, it ran out of memory, it
// was ended) fails every request still waiting, and every one after, with an error that says so,
// rather than leaving them to hang. An idle thread does not keep the process alive; one with a
// request on its way does, so a short script that awaits the store is not cut off.
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { StoreThreadError, type Answer, type Request, type RequestKind, type StoreRequests } from './store-requests'

/** How to start a worker thread: its script, and whether that is the code itself. */
export interface WorkerScript {
  script: URL | string
  eval: boolean
}

/**
 * The store's worker. Built, each host emits it beside its entry (electron-vite's main build as
 * out/main/store-worker.js, browser mode's host as out/browser/store-worker.js; a bundler may put
 * the code that calls this in a chunks/ folder below them). From sources (Vitest, tsx) this module
 * is TypeScript and so is the worker: a thread does not take tsx from `--import` in its execArgv
 * on Node 20, so it registers tsx itself before it imports the worker.
 */
export function storeWorkerScript(): WorkerScript {
  if (import.meta.filename.endsWith('.ts')) {
    return builtFromSources === null ? throughTsx(new URL('./store-worker.ts', import.meta.url)) : { script: pathToFileURL(builtFromSources), eval: false }
  }
  const here = import.meta.dirname
  const folder = basename(here) === 'chunks' && !existsSync(join(here, 'store-worker.js')) ? join(here, '..') : here
  return { script: pathToFileURL(join(folder, 'store-worker.js')), eval: false }
}

/** A build of the worker from these sources, to start instead of them; null: none. */
let builtFromSources: string | null = null

/**
 * Run from sources, start store workers from `file`, a build of store-worker.ts made from the same
 * sources: a test run builds it once (tests/support/store-worker-build.ts) rather than have every
 * thread load tsx and compile it again.
 */
export function startStoreWorkersFrom(file: string): void {
  builtFromSources = file
}

/** The SQLite addon store workers load, when not the one beside the package's JavaScript; null: that one. */
let sqliteAddon: string | null = null

/**
 * Store workers load SQLite's native addon from `file`: the Electron window of `npm start` runs on
 * an ABI other than Node's, and loads a build of its own (scripts/electron-sqlite.mjs), while
 * node_modules keeps the one Node needs. Set once, before any store opens.
 */
export function loadSqliteFrom(file: string | null): void {
  sqliteAddon = file
}

/** A TypeScript worker, run through tsx. */
export function throughTsx(worker: URL): WorkerScript {
  const tsx = import.meta.resolve('tsx/esm/api')
  return { script: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(worker.href)}) })`, eval: true }
}

/** A store's thread started before any store asked for one (`startSpareStoreThread`). */
export interface SpareStoreThread {
  readonly threadId: number
  /** Settles once the thread has ended, whether a store took it or not. */
  readonly exited: Promise<void>
}

/**
 * Until a store takes it, a spare thread's failure is only that it is not taken: the store then
 * starts a thread of its own, which reports what went wrong.
 */
class SpareThread implements SpareStoreThread {
  readonly #worker: Worker
  readonly exited: Promise<void>
  #ended = false
  /** A thread that failed ends next: it is passed over from the failure on. */
  readonly #failed = (): void => {
    this.#ended = true
  }

  constructor(script: WorkerScript) {
    this.#worker = startWorker('a local store', script)
    this.#worker.on('error', this.#failed)
    this.exited = new Promise((resolve) => {
      this.#worker.once('exit', () => {
        this.#ended = true
        resolve()
      })
    })
  }

  get threadId(): number {
    return this.#worker.threadId
  }

  /** The thread, for a store to own; null when it has ended. */
  take(): Worker | null {
    this.#worker.off('error', this.#failed)
    return this.#ended ? null : this.#worker
  }
}

let spare: SpareThread | null = null

/**
 * Starts a store's thread now, for the next store to open in the store's own worker to take.
 * Starting a thread (a Node environment of its own, then SQLite's addon) is most of the time a
 * store takes to open, and on two cores it competed with the page loading: begun with the
 * process, it runs while the rest of the app loads (measured: README, the cached start). One
 * waits at a time. `script`: what it runs, the store's worker by default.
 */
export function startSpareStoreThread(script: WorkerScript = storeWorkerScript()): SpareStoreThread {
  spare ??= new SpareThread(script)
  return spare
}

/** The spare thread, if one waits and is alive. */
function takeSpare(): Worker | null {
  const taken = spare?.take() ?? null
  spare = null
  return taken
}

function startWorker(name: string, { script, eval: isCode }: WorkerScript): Worker {
  const worker = new Worker(script, { eval: isCode, name, workerData: { sqliteAddon } })
  worker.unref()
  return worker
}

interface Waiting {
  resolve(value: unknown): void
  reject(error: Error): void
}

export class StoreThread {
  readonly #worker: Worker
  readonly #waiting = new Map<number, Waiting>()
  #nextId = 1
  /** Why no request can be answered any more, once none can. */
  #gone: Error | null = null
  /** Closing: the thread keeps the process alive until it has ended, so whoever awaits the close sees it. */
  #closing = false
  readonly #exited: Promise<void>

  /**
   * `name`: what the thread is for, in its errors (`the local store of 42`, say). `script`: the
   * worker to run; by default the store's, in the spare thread when one waits.
   */
  constructor(
    readonly name: string,
    script?: WorkerScript
  ) {
    this.#worker = (script === undefined ? takeSpare() : null) ?? startWorker(name, script ?? storeWorkerScript())
    this.#worker.on('message', (answer: Answer) => this.#answered(answer))
    this.#worker.on('error', (error) => this.#die(new Error(`the worker thread of ${name} failed: ${error.message}`, { cause: error })))
    this.#worker.on('messageerror', (error) => this.#die(new Error(`the worker thread of ${name} sent what could not be read`, { cause: error })))
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', (code) => {
        this.#die(new Error(`the worker thread of ${name} stopped (exit code ${code})`))
        resolve()
      })
    })
  }

  get threadId(): number {
    return this.#worker.threadId
  }

  request<K extends RequestKind>(kind: K, request: StoreRequests[K]['req']): Promise<StoreRequests[K]['res']> {
    if (this.#gone !== null) return Promise.reject(this.#gone)
    const id = this.#nextId++
    const answered = new Promise<unknown>((resolve, reject) => this.#waiting.set(id, { resolve, reject }))
    if (this.#waiting.size === 1) this.#worker.ref()
    this.#worker.postMessage({ ...request, id, kind } as Request)
    return answered as Promise<StoreRequests[K]['res']>
  }

  /** Closes the store once every request before this one is done, and resolves once the thread has ended. */
  async close(): Promise<void> {
    if (this.#gone === null) {
      this.#gone = new Error(`${this.name} is closed`)
      this.#closing = true
      const id = this.#nextId++
      const closed = new Promise<unknown>((resolve, reject) => this.#waiting.set(id, { resolve, reject }))
      this.#worker.ref()
      this.#worker.postMessage({ id, kind: 'close' } satisfies Request)
      try {
        await closed
      } finally {
        await this.#exited
      }
      return
    }
    await this.#exited
  }

  /** Ends the thread now, whatever it was doing: what waited fails. */
  async end(): Promise<void> {
    await this.#worker.terminate()
    await this.#exited
  }

  #answered(answer: Answer): void {
    const waiting = this.#waiting.get(answer.id)
    if (waiting === undefined) return
    this.#waiting.delete(answer.id)
    if (this.#waiting.size === 0 && !this.#closing) this.#worker.unref()
    if (answer.ok) waiting.resolve(answer.value)
    else waiting.reject(new StoreThreadError(answer.error))
  }

  #die(reason: Error): void {
    this.#gone ??= reason
    const waiting = [...this.#waiting.values()]
    this.#waiting.clear()
    this.#worker.unref()
    for (const { reject } of waiting) reject(reason)
  }
}
