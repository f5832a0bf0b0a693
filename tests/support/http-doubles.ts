// Real HTTP servers on free ports that stand where a service would: one that only records what
// reaches it, and one in front of the local service that passes everything on until told to answer
// with redirects instead. Tests point the app's addresses at them and look at what arrived.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export interface HttpDouble {
  readonly origin: string
  /** Every request that reached it, in order, with WebSocket upgrades among them. */
  readonly requests: RecordedRequest[]
  /** Whether `text` appears in anything that reached it: a header's value, a path, a body. */
  heard(text: string): boolean
  close(): Promise<void>
}

/** Answers every request with `status` and `{}`, and every WebSocket upgrade by closing it. */
export async function startRecordingHost(status = 200): Promise<HttpDouble> {
  return listen((_request, _body, response) => response.writeHead(status, { 'content-type': 'application/json' }).end('{}'))
}

export interface Redirector extends HttpDouble {
  /** From now on every request, upgrades included, is answered `status` with a Location on `target`, the same path. */
  redirectTo(target: string, status?: number): void
}

/** Passes every request on to `upstream` as it came, until `redirectTo` is called. */
export async function startRedirector(upstream: string): Promise<Redirector> {
  let redirect: { target: string; status: number } | null = null
  const double = await listen(
    (request, body, response) => {
      if (redirect !== null) {
        response.writeHead(redirect.status, { location: new URL(request.url ?? '/', redirect.target).href }).end()
        return
      }
      const forwarded = httpRequest(new URL(request.url ?? '/', upstream), { method: request.method ?? 'GET', headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      forwarded.on('error', () => response.writeHead(502).end())
      forwarded.end(body)
    },
    (request, socket) => {
      if (redirect === null) {
        socket.destroy()
        return
      }
      const location = new URL(request.url ?? '/', redirect.target.replace(/^http/, 'ws')).href
      socket.end(`HTTP/1.1 ${redirect.status} Moved\r\nLocation: ${location}\r\nConnection: close\r\n\r\n`)
    }
  )
  return {
    ...double,
    redirectTo(target, status = 307) {
      redirect = { target, status }
    }
  }
}

type Respond = (request: IncomingMessage, body: Buffer, response: ServerResponse) => void
type Upgrade = (request: IncomingMessage, socket: Duplex) => void

async function listen(respond: Respond, upgrade: Upgrade = (_request, socket) => socket.destroy()): Promise<HttpDouble> {
  const requests: RecordedRequest[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: body.toString('utf8') })
      respond(request, body, response)
    })
  })
  server.on('upgrade', (request: IncomingMessage, socket) => {
    requests.push({ method: `${request.method ?? ''} (upgrade)`, url: request.url ?? '', headers: request.headers, body: '' })
    upgrade(request, socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    requests,
    heard: (text) => requests.some((seen) => seen.url.includes(text) || seen.body.includes(text) || JSON.stringify(seen.headers).includes(text)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
