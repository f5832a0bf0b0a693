import type { Clock } from './clock.js'
import type { Config } from './config.js'
import { MetaStore, type Db } from './db/connection.js'
import type { PushPublisher } from './push/publisher.js'

/**
 * What every domain module and route shares for one running service: the database, the clock,
 * the resolved settings, the push publisher and the public URLs. Domain modules are built on
 * demand with `core.use(Ctor)`, one instance per service, so an area adds a module without
 * registering it anywhere.
 */
export class Core {
  readonly db: Db
  readonly clock: Clock
  readonly config: Config
  readonly meta: MetaStore
  readonly push: PushPublisher
  #origin: string | null
  readonly #modules = new Map<new (core: Core) => unknown, unknown>()

  constructor(init: { db: Db; clock: Clock; config: Config; push: PushPublisher }) {
    this.db = init.db
    this.clock = init.clock
    this.config = init.config
    this.push = init.push
    this.meta = new MetaStore(init.db)
    this.#origin = init.config.publicOrigin
  }

  /** The shared instance of a domain module (constructed on first use). */
  use<T>(Module: new (core: Core) => T): T {
    let instance = this.#modules.get(Module) as T | undefined
    if (instance === undefined) {
      instance = new Module(this)
      this.#modules.set(Module, instance)
    }
    return instance
  }

  /** `SERVICE_PUBLIC_ORIGIN`, or `http://host:port` of the bound port (§1, §18.21). */
  get origin(): string {
    if (this.#origin === null) throw new Error('the public origin is known only once the service listens')
    return this.#origin
  }

  setBoundOrigin(origin: string): void {
    this.#origin ??= origin
  }

  /** Runs `fn` in one SQLite transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)()
  }
}
