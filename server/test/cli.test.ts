// `npm run service` as a developer runs it: what it prints, and how it refuses bad settings.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'

const running: ChildProcessWithoutNullStreams[] = []

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

function startCli(args: string[], env: Record<string, string> = {}): { child: ChildProcessWithoutNullStreams; lines: string[]; waitForLine(pattern: RegExp): Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/cli.ts', ...args], {
    env: { ...process.env, SERVICE_ATTESTATION_SECRET: '', ...env }
  })
  running.push(child)
  const lines: string[] = []
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = []
  const collect = (line: string): void => {
    lines.push(line)
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(line)
      }
    }
  }
  createInterface({ input: child.stdout }).on('line', collect)
  createInterface({ input: child.stderr }).on('line', collect)
  return {
    child,
    lines,
    waitForLine: (pattern) =>
      new Promise((resolve, reject) => {
        const seen = lines.find((line) => pattern.test(line))
        if (seen !== undefined) return resolve(seen)
        waiters.push({ pattern, resolve })
        child.once('exit', () => reject(new Error(`exited before printing ${pattern}:\n${lines.join('\n')}`)))
      })
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', resolve))
}

describe('the service command line', () => {
  it('prints where it listens, the attestation secret, the demo accounts and every SMS it sends', async () => {
    const cli = startCli(['--dev', '--port', '0', '--seed', 'demo'])
    const origin = (await cli.waitForLine(/^listening on /)).replace('listening on ', '')
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await cli.waitForLine(/^attestation secret: local-dev-attestation$/)
    expect(cli.lines.filter((line) => line.startsWith('public origin'))).toEqual([])
    const ada = await cli.waitForLine(/ada@demo\.test/)
    const [, email, phone, password] = /: (\S+) \/ (.+?) \/ (\S+)$/.exec(ada) ?? []

    const login = await fetch(`${origin}/v2/access_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 'cli-test', grant_type: 'password', username: email, password })
    })
    expect(login.status).toBe(202)
    const { verification } = (await login.json()) as { verification: { code: string } }
    await fetch(`${origin}/v3/verifications/${verification.code}/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verification: { method: 'sms' } })
    })
    expect(await cli.waitForLine(/^sms to /)).toMatch(new RegExp(`^sms to \\${phone}: Your verification code is \\d{6}$`))

    cli.child.kill('SIGTERM')
    expect(await exitCode(cli.child)).toBe(0)
  })

  it('names the bound origin in `listening on`, and a different public origin on a line of its own (§18.26)', async () => {
    const cli = startCli(['--dev', '--port', '0'], { SERVICE_PUBLIC_ORIGIN: 'https://chat.example.test/' })
    const listening = await cli.waitForLine(/^listening on /)
    const bound = listening.replace('listening on ', '')
    expect(bound).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await cli.waitForLine(/^attestation secret: /)
    expect(cli.lines.filter((line) => line.startsWith('public origin'))).toEqual(['public origin: https://chat.example.test'])
    expect(cli.lines.indexOf('public origin: https://chat.example.test')).toBe(cli.lines.indexOf(listening) + 1)
    // The printed origin is where the service answers; the URLs it makes use the public one.
    const created = await fetch(`${bound}/dev/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cli', email: 'cli@example.test', phone_number: '+1 5550101010', password: 'pw' })
    })
    expect(created.status).toBe(201)
    expect(((await created.json()) as { user: { share_url: string } }).user.share_url).toMatch(/^https:\/\/chat\.example\.test\//)
    cli.child.kill('SIGTERM')
    expect(await exitCode(cli.child)).toBe(0)
  })

  it('prints no public origin when it equals the bound one', async () => {
    const port = await freePort()
    const cli = startCli(['--dev', '--port', String(port)], { SERVICE_PUBLIC_ORIGIN: `http://127.0.0.1:${port}` })
    expect(await cli.waitForLine(/^listening on /)).toBe(`listening on http://127.0.0.1:${port}`)
    await cli.waitForLine(/^attestation secret: /)
    expect(cli.lines.filter((line) => line.startsWith('public origin'))).toEqual([])
    cli.child.kill('SIGTERM')
    expect(await exitCode(cli.child)).toBe(0)
  })

  it('refuses to start outside --dev without an attestation secret', async () => {
    const cli = startCli(['--port', '0'])
    expect(await exitCode(cli.child)).not.toBe(0)
    expect(cli.lines.join('\n')).toMatch(/SERVICE_ATTESTATION_SECRET/)
  })

  it('refuses a port that is not a number', async () => {
    const cli = startCli(['--dev', '--port', 'eighty'])
    expect(await exitCode(cli.child)).not.toBe(0)
    expect(cli.lines.join('\n')).toMatch(/--port takes a number/)
  })
})
