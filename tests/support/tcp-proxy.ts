// A TCP relay between an app and the service, to misbehave like a network does: it drops every
// connection at once (`cut`), refuses new ones until `restore`, and can let a request through
// while losing its answer (`loseAnswersTo`), the case where the service acted but the app never
// heard. It knows nothing of HTTP beyond the first line of a request, so WebSockets (push) pass
// through it and are dropped with everything else.
import { createServer, connect, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: point the app here instead of at the service. */
  readonly origin: string
  /** Drops every open connection and refuses new ones until `restore()`. */
  cut(): void
  /**
   * Drops every open connection and takes new ones without ever answering, until `restore()` (which
   * drops them): a service, or a network, that does not answer rather than refusing.
   */
  silence(): void
  restore(): void
  readonly isCut: boolean
  /**
   * The next `count` requests whose first line matches `requestLine` (e.g. /^POST \/v3\/groups\/\d+\/messages/)
   * reach the service, but the connection is dropped as the answer starts, so the app never reads it.
   * Resolves once that many answers have been lost. `passFirst` matching requests go through
   * untouched before that, to lose an answer in the middle of a run of sends.
   */
  loseAnswersTo(requestLine: RegExp, count?: number, passFirst?: number): Promise<void>
  /**
   * Drops every connection that carries a request whose first line matches `requestLine` (push's,
   * /^\w+ \/faye/, say), those open now and those to come, until `unblock()`: one kind of traffic
   * is gone while the rest flows.
   */
  block(requestLine: RegExp): void
  unblock(): void
  /** Connections relayed so far, for tests that must know traffic passed. */
  readonly connections: number
  close(): Promise<void>
}

interface AnswerTrap {
  requestLine: RegExp
  /** Matching requests still to let through before the trap springs. */
  passing: number
  remaining: number
  done: () => void
}

/** Relays `127.0.0.1:<free port>` to `target` (an `http://host:port` origin). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target)
  const upstreamHost = hostname.replace(/^\[(.*)\]$/, '$1')
  const open = new Set<Socket>()
  const traps: AnswerTrap[] = []
  /** The request lines each open connection has carried, for `block`. */
  const carried = new Map<Socket, string[]>()
  let blocked: RegExp | null = null
  let cut = false
  let silent = false
  /** Connections taken while silent, never answered. */
  const held = new Set<Socket>()
  let connections = 0

  const server: Server = createServer((client) => {
    if (cut) {
      client.resetAndDestroy()
      return
    }
    if (silent) {
      held.add(client)
      client.on('error', () => held.delete(client))
      client.resume()
      return
    }
    connections += 1
    relay(client)
  })

  function relay(client: Socket): void {
    const upstream = connect({ host: upstreamHost, port: Number(port) })
    open.add(client)
    open.add(upstream)
    carried.set(client, [])
    let reachedService = false
    let requested = false
    // An answer on its way to a trapped request is swallowed, and the connection dropped with it.
    // The trap counts the answer as lost only when one comes: a request that never reached the
    // service (it was down) had no answer to lose, and the trap waits for the next.
    let springing: AnswerTrap | null = null
    const dropBoth = (): void => {
      client.resetAndDestroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
      carried.delete(client)
    }
    // The service is down: without the proxy the connection would have been refused outright. One
    // reset before its request is read leaves fetch waiting for ever, so the reset waits for it.
    const refuse = (): void => {
      if (requested) return dropBoth()
      client.once('data', dropBoth)
      setTimeout(dropBoth, 1_000).unref()
    }
    client.on('data', (chunk: Buffer) => {
      requested = true
      if (upstream.destroyed) return
      const line = firstLine(chunk)
      // Only requests are kept, not every chunk of a WebSocket's traffic.
      if (REQUEST_LINE.test(line)) carried.get(client)?.push(line)
      if (blocked?.test(line)) return dropBoth()
      const trap = traps.find((candidate) => candidate.requestLine.test(line))
      if (trap !== undefined && trap.passing > 0) trap.passing -= 1
      else if (trap !== undefined) springing = trap
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => {
      if (springing === null) {
        client.write(chunk)
        return
      }
      const trap = springing
      dropBoth()
      trap.remaining -= 1
      if (trap.remaining > 0) return
      traps.splice(traps.indexOf(trap), 1)
      trap.done()
    })
    upstream.once('connect', () => (reachedService = true))
    client.on('end', () => upstream.end())
    upstream.on('end', () => client.end())
    client.on('error', dropBoth)
    client.on('close', dropBoth)
    upstream.on('error', () => (reachedService ? dropBoth() : refuse()))
    upstream.on('close', () => reachedService && dropBoth())
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port: proxyPort } = server.address() as AddressInfo

  return {
    origin: `http://127.0.0.1:${proxyPort}`,
    cut() {
      cut = true
      for (const socket of open) socket.destroy()
      open.clear()
    },
    silence() {
      silent = true
      for (const socket of open) socket.destroy()
      open.clear()
    },
    restore() {
      cut = false
      silent = false
      for (const socket of held) socket.destroy()
      held.clear()
    },
    get isCut() {
      return cut
    },
    block(requestLine) {
      blocked = requestLine
      for (const [client, lines] of carried) if (lines.some((line) => requestLine.test(line))) client.destroy()
    },
    unblock() {
      blocked = null
    },
    loseAnswersTo(requestLine, count = 1, passFirst = 0) {
      return new Promise<void>((resolve) => traps.push({ requestLine, passing: passFirst, remaining: count, done: resolve }))
    },
    get connections() {
      return connections
    },
    async close() {
      for (const socket of [...open, ...held]) socket.destroy()
      open.clear()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]$/

function firstLine(chunk: Buffer): string {
  const text = chunk.subarray(0, 512).toString('latin1')
  const end = text.indexOf('\r\n')
  return end === -1 ? text : text.slice(0, end)
}
