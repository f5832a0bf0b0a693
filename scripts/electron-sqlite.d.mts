// Types of electron-sqlite.mjs, for the tests that import it.
import type { spawnSync } from 'node:child_process'

export function electronSqlitePath(root: string, electronVersion: string, platform?: string, arch?: string): string
export function pinnedElectronVersion(root: string): string
export function electronSqliteBinding(
  root: string,
  options?: {
    run?: (command: string, args: string[], options: { cwd: string; stdio: 'inherit'; shell: boolean }) => Pick<ReturnType<typeof spawnSync>, 'status'>
    log?: { log(text: string): void; warn(text: string): void }
  }
): string | null
