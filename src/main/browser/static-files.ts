// Serves the built renderer: files under one directory only, with their proper types. Anything
// outside it, through `..`, encoded separators or a symlink, is simply not found.
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm'
}

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

export interface StaticFiles {
  /** Answers the request (200, 204, 400, 404 or 405); never throws. */
  serve(request: IncomingMessage, response: ServerResponse, headers: Record<string, string>): Promise<void>
}

export async function staticFiles(directory: string): Promise<StaticFiles> {
  const root = await realpath(directory)

  async function find(pathname: string): Promise<string | null> {
    const relative = pathname === '/' ? '/index.html' : pathname
    // A backslash or NUL has no business in a URL path here and could mean something to the OS.
    if (relative.includes('\\') || relative.includes('\0')) return null
    const candidate = resolve(root, `.${relative}`)
    if (!candidate.startsWith(root + sep)) return null
    try {
      const real = await realpath(candidate)
      if (!real.startsWith(root + sep)) return null
      return (await stat(real)).isFile() ? real : null
    } catch {
      return null
    }
  }

  return {
    async serve(request, response, headers) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end()
        return
      }
      let pathname: string
      try {
        pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname)
      } catch {
        response.writeHead(400, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request')
        return
      }
      const file = await find(pathname)
      if (file === null) {
        // Browsers ask for /favicon.ico on their own; an empty answer keeps their console quiet.
        if (pathname === '/favicon.ico') response.writeHead(204, headers).end()
        else response.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
        return
      }
      const { size } = await stat(file)
      response.writeHead(200, { ...headers, 'Content-Type': contentTypeOf(file), 'Content-Length': String(size) })
      if (request.method === 'HEAD') {
        response.end()
        return
      }
      createReadStream(file)
        .on('error', () => response.destroy())
        .pipe(response)
    }
  }
}
