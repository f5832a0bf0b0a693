// A real HTTP server on a free port in front of the local service, passing every request on, except
// that it can answer a number of chosen requests itself with a failure (429 Too Many Requests, a 503)
// as a busy deployment would: what the local service never does of its own accord. It notes when
// each chosen request came, for tests of how long a client waits before asking again.
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface BusyService {
  /** `http://127.0.0.1:<port>`: point the app here instead of at the service. */
  readonly origin: string
  /** The next `count` requests whose first line (`GET /v3/...`) matches `requestLine` are answered `status`, not passed on. */
  refuse(requestLine: RegExp, count: number, status?: number): void
  /** When each request matching the last `refuse` pattern came (ms, `performance.now()`), refused or passed on. */
  readonly arrivals: number[]
  close(): Promise<void>
}

export async function startBusyService(upstream: string): Promise<BusyService> {
  let refusing: { requestLine: RegExp; remaining: number; status: number } | null = null
  const arrivals: number[] = []
  const server: Server = createServer((request, response) => {
    const line = `${request.method ?? 'GET'} ${request.url ?? '/'}`
    if (refusing !== null && refusing.requestLine.test(line)) {
      arrivals.push(performance.now())
      if (refusing.remaining > 0) {
        refusing.remaining -= 1
        request.resume()
        const body = JSON.stringify({ response: null, meta: { code: refusing.status, errors: ['busy'] } })
        response.writeHead(refusing.status, { 'content-type': 'application/json' }).end(body)
        return
      }
    }
    const forwarded = httpRequest(new URL(request.url ?? '/', upstream), { method: request.method ?? 'GET', headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    forwarded.on('error', () => response.writeHead(502).end())
    request.pipe(forwarded)
  })
  // Push is not what this stands in front of.
  server.on('upgrade', (_request, socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refuse(requestLine, count, status = 429) {
      refusing = { requestLine, remaining: count, status }
      arrivals.length = 0
    },
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
