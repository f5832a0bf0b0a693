// `npm run service` as a developer runs it: what it prints, and how it refuses bad settings.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
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

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', resolve))
}

describe('the service command line', () => {
  it('prints where it listens, the attestation secret, the demo accounts and every SMS it sends', async () => {
    const cli = startCli(['--dev', '--port', '0', '--seed', 'demo'])
    const origin = (await cli.waitForLine(/^listening on /)).replace('listening on ', '')
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await cli.waitForLine(/^attestation secret: local-dev-attestation$/)
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
