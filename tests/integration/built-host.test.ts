// Browser mode as `npm start` and `npm run web` run it: the host built into out/browser/ by
// `npm run build`, started with plain Node by scripts/web.mjs's runBuiltHost, against a real local
// service; with no --renderer-dir, so it finds the renderer built beside it.
import { execFile, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startService, type RunningService } from '../../server/src/index'
import { builtHost, runBuiltHost } from '../../scripts/web.mjs'
import { environmentWithoutParley, repositoryRoot } from '../support/browser-cli'

let service: RunningService
let dataDir: string
let host: ChildProcess
let output = ''
let pageUrl: URL

function hostExited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (host.exitCode !== null || host.signalCode !== null) return Promise.resolve({ code: host.exitCode, signal: host.signalCode })
  return new Promise((resolve) => host.once('exit', (code, signal) => resolve({ code, signal })))
}

beforeAll(async () => {
  if (!existsSync(builtHost) || !existsSync(join(repositoryRoot, 'out', 'renderer', 'index.html'))) {
    throw new Error(`There is no built host at ${builtHost} or no built renderer: run \`npm run build\` first (\`npm test\` does).`)
  }
  service = await startService({ port: 0, db: ':memory:', dev: true })
  dataDir = await mkdtemp(join(tmpdir(), 'parley-built-host-'))
  const environment = { ...environmentWithoutParley(), PARLEY_VERIFY_TOKEN: service.attestationSecret }
  host = runBuiltHost(['--service-origin', service.origin, '--data-dir', dataDir, '--port', '0'], { env: environment, stdio: 'pipe' })
  host.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The built host printed no address within 20 s:\n${output}`)), 20_000)
    createInterface({ input: host.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      output += `${line}\n`
      const found = /^Open (\S+)$/.exec(line)?.[1]
      if (found === undefined) return
      clearTimeout(timer)
      resolve(found)
    })
    host.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The built host exited (code ${code}) before printing its address:\n${output}`))
    })
  })
  pageUrl = new URL(address)
}, 40_000)

afterAll(async () => {
  if (host !== undefined && host.exitCode === null && host.signalCode === null) {
    host.kill('SIGKILL')
    await hostExited()
  }
  await service?.close()
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
})

describe("browser mode's built host (out/browser/cli.js)", () => {
  it('is plain JavaScript with source maps into the TypeScript sources, run without tsx', () => {
    expect(host.spawnargs.slice(1)).toEqual([builtHost, '--service-origin', service.origin, '--data-dir', dataDir, '--port', '0'])
    expect(host.spawnargs.join(' ')).not.toContain('tsx')
    const map = JSON.parse(readFileSync(`${builtHost}.map`, 'utf8')) as { sources: string[] }
    expect(map.sources.some((source) => source.endsWith('src/main/browser/cli.ts'))).toBe(true)
  })

  it('carries its dependencies within, all but the native SQLite: a start reads a few files, not a tree of packages', () => {
    const built = readdirSync(dirname(builtHost), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'))
    const imported = new Set(
      built.flatMap((name) => [...readFileSync(join(dirname(builtHost), name), 'utf8').matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]))
    )
    const packages = [...imported].filter((name) => name !== undefined && !name.startsWith('node:') && !name.startsWith('.'))
    expect(packages).toEqual(['better-sqlite3-multiple-ciphers'])
  })

  it('starts against the service and serves the renderer built beside it', async () => {
    expect(output).toContain(`using the service at ${service.origin}`)
    expect(pageUrl.hostname).toBe('127.0.0.1')
    const page = await fetch(new URL('/', pageUrl))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<title>Parley</title>')
  })

  it('answers the contract over its bridge with the secret it printed', async () => {
    const secret = new URLSearchParams(pageUrl.hash.slice(1)).get('secret') ?? ''
    const socket = new WebSocket(`ws://${pageUrl.host}/bridge?secret=${encodeURIComponent(secret)}`, { origin: pageUrl.origin })
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    const answer = new Promise<unknown>((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))))
    socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'session:get', payload: {} }))
    expect(await answer).toMatchObject({ type: 'result', id: 1, result: { ok: true, value: { status: 'signedOut' } } })
    socket.close()
  })

  it("has the local store's SQLite within reach of its imports, loadable by plain Node", async () => {
    // Evaluated with out/browser/ as the base, so the package resolves as an import in cli.js does;
    // sqlite3mc_version() exists only in the encrypting build, FTS5 is what search will index with.
    const probe = [
      "import Database from 'better-sqlite3-multiple-ciphers'",
      "const db = new Database(':memory:')",
      "db.exec('CREATE VIRTUAL TABLE probe USING fts5(body)')",
      "console.log(db.prepare('SELECT sqlite3mc_version()').pluck().get())"
    ].join('\n')
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', probe], { cwd: dirname(builtHost) })
    expect(stdout).toMatch(/^SQLite3 Multiple Ciphers \d/)
  })

  it('stops cleanly on SIGTERM', async () => {
    host.kill('SIGTERM')
    expect(await hostExited()).toEqual({ code: 0, signal: null })
  })
})
