// The log both hosts write: one line per entry on stderr (stdout stays free for what a CLI prints).
import { inspect } from 'node:util'
import type { Log } from './log'

export function createConsoleLog(scope: string, write: (line: string) => void = (line) => process.stderr.write(line)): Log {
  const entry = (level: string) => (message: string, details?: unknown) => {
    const suffix = details === undefined ? '' : ` ${inspect(details, { depth: 4, breakLength: Infinity })}`
    write(`${new Date().toISOString()} ${level} [${scope}] ${message}${suffix}\n`)
  }
  return { info: entry('info'), warn: entry('warn'), error: entry('error') }
}
