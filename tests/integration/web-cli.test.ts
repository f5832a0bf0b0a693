// The README's browser mode, run the way `npm run web -- --service-origin … --data-dir … --port 0`
// runs it: the cli as its own process against a real local service, stopped with SIGTERM.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startService, type RunningService } from '../../server/src/index'
import { environmentWithoutParley, exited, repositoryRoot as root, waitForLine } from '../support/browser-cli'
const builtPage = join(root, 'out', 'renderer', 'index.html')

let service: RunningService
let dataDir: string
let cli: ChildProcessWithoutNullStreams
let output = ''
let pageUrl: URL

/** Runs the cli to its end and resolves with how it ended and everything it printed. */
async function runToEnd(args: string[], environment: Record<string, string | undefined>): Promise<{ code: number | null; printed: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/browser/cli.ts', ...args], { cwd: root, env: environment, stdio: 'pipe' })
  let printed = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    printed += chunk
    // A cli that started after all is stopped, so the test fails on its exit code, not a timeout.
    if (/^Open /m.test(printed)) child.kill('SIGTERM')
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk))
  // 'close' rather than 'exit': it comes once the output has been read to its end.
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('close', resolve)
    child.once('error', reject)
  })
  return { code, printed }
}

/** How a bridge connection attempt ended: opened, or refused with an HTTP status. */
function connectBridge(query: string, origin = pageUrl.origin): Promise<{ opened: WebSocket } | { status: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${pageUrl.host}/bridge${query}`, { origin })
    socket.once('open', () => resolve({ opened: socket }))
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 })
      socket.terminate()
    })
    socket.once('error', reject)
  })
}

beforeAll(async () => {
  if (!existsSync(builtPage)) {
    throw new Error(`There is no built renderer at ${builtPage}: run \`npx electron-vite build\` first (\`npm test\` does).`)
  }
  service = await startService({ port: 0, db: ':memory:', dev: true })
  dataDir = await mkdtemp(join(tmpdir(), 'parley-web-cli-'))
  // Only the command line and the service's attestation secret say which service to use.
  const environment = environmentWithoutParley()
  environment.PARLEY_VERIFY_TOKEN = service.attestationSecret
  cli = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main/browser/cli.ts', '--service-origin', service.origin, '--data-dir', dataDir, '--port', '0'],
    { cwd: root, env: environment, stdio: 'pipe' }
  )
  cli.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [, url] = await waitForLine(cli, /^Open (\S+)$/, 20_000, () => output)
  pageUrl = new URL(url ?? '')
}, 40_000)

afterAll(async () => {
  if (cli !== undefined && cli.exitCode === null && cli.signalCode === null) {
    cli.kill('SIGKILL')
    await exited(cli)
  }
  await service?.close()
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
})

describe('npm run web (src/main/browser/cli.ts)', () => {
  it('says which service it uses and prints an address on loopback that carries the secret', () => {
    expect(output).toContain(`using the service at ${service.origin}`)
    expect(pageUrl.hostname).toBe('127.0.0.1')
    expect(new URLSearchParams(pageUrl.hash.slice(1)).get('secret')).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  })

  it('serves the built page and the favicon', async () => {
    const page = await fetch(new URL('/', pageUrl))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<title>Parley</title>')

    const favicon = await fetch(new URL('/favicon.ico', pageUrl))
    expect(favicon.ok).toBe(true)
  })

  it('refuses a bridge socket without the secret, and takes one with it', async () => {
    expect(await connectBridge('')).toEqual({ status: 401 })
    expect(await connectBridge('?secret=guess')).toEqual({ status: 401 })

    const secret = new URLSearchParams(pageUrl.hash.slice(1)).get('secret') ?? ''
    const outcome = await connectBridge(`?secret=${encodeURIComponent(secret)}`)
    if (!('opened' in outcome)) throw new Error(`The bridge refused the right secret (HTTP ${outcome.status}).`)
    const socket = outcome.opened
    const answer = new Promise<unknown>((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))))
    socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'session:get', payload: {} }))
    expect(await answer).toMatchObject({ type: 'result', id: 1, result: { ok: true, value: { status: 'signedOut' } } })
    socket.close()
  })

  it('stops cleanly on SIGTERM', async () => {
    cli.kill('SIGTERM')
    expect(await exited(cli)).toEqual({ code: 0, signal: null })
  })
})

describe('npm run web with an address that would carry the token in cleartext', () => {
  it('refuses to start, saying which setting, from where, and why', async () => {
    const refusedDataDir = await mkdtemp(join(tmpdir(), 'parley-web-cli-refused-'))
    try {
      const environment = { ...environmentWithoutParley(), PARLEY_BASE_URL: 'http://chat.example.com' }
      const { code, printed } = await runToEnd(['--data-dir', refusedDataDir, '--port', '0'], environment)

      expect(code).toBe(1)
      expect(printed).toContain(
        'Invalid service setting "baseUrl" (from PARLEY_BASE_URL): http: to chat.example.com would send the access token unencrypted; ' +
          'use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
      )
      expect(printed).not.toContain('Open ')
    } finally {
      await rm(refusedDataDir, { recursive: true, force: true })
    }
  })

  it('refuses a --service-origin that is not on this computer and not https', async () => {
    const refusedDataDir = await mkdtemp(join(tmpdir(), 'parley-web-cli-refused-'))
    try {
      const args = ['--service-origin', 'http://chat.example.com:8080', '--data-dir', refusedDataDir, '--port', '0']
      const { code, printed } = await runToEnd(args, environmentWithoutParley())

      expect(code).toBe(1)
      expect(printed).toContain('Invalid service setting "PARLEY_SERVICE_ORIGIN": http: to chat.example.com would send the access token unencrypted')
      expect(printed).not.toContain('Open ')
    } finally {
      await rm(refusedDataDir, { recursive: true, force: true })
    }
  })
})
