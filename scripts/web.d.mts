// Types of web.mjs, for the tests that import it.
import type { ChildProcess, StdioOptions } from 'node:child_process'

export const root: string
export const builtHost: string
export const builtDataDir: string
export function ensureBuilt(): void
export function ensureHostBuilt(): void
export function runBuiltHost(args: string[], options?: { env?: Record<string, string | undefined>; stdio?: StdioOptions }): ChildProcess
export function runTypeScript(entry: string, args: string[], options?: { env?: Record<string, string | undefined>; stdio?: StdioOptions }): ChildProcess
export function exited(child: ChildProcess): Promise<number>
