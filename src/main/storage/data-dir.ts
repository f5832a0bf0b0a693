// Browser mode keeps its files in one directory that only the user can enter, and writes each
// file whole (temporary file, then rename) so a crash never leaves half a file behind.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export const DIRECTORY_MODE = 0o700
export const FILE_MODE = 0o600

/**
 * The per-user folder the desktop app keeps its data in (Electron's `userData`), e.g.
 * ~/.config/Parley. `npm start` (scripts/start.mjs) keeps the local service's database here too.
 */
export function userDataDir(environment: Record<string, string | undefined> = process.env): string {
  const appData =
    process.platform === 'win32'
      ? (environment.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (environment.XDG_CONFIG_HOME ?? join(homedir(), '.config'))
  return join(appData, 'Parley')
}

/** Browser mode's own folder inside a data folder like the one above. */
export function browserModeDir(dataDir: string): string {
  return join(dataDir, 'browser-mode')
}

/** Where browser mode keeps its data unless told otherwise, next to the desktop app's own. */
export function defaultDataDir(environment: Record<string, string | undefined> = process.env): string {
  return browserModeDir(userDataDir(environment))
}

/** Creates the directory if needed and makes sure no other user can read into it. */
export function ensurePrivateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: DIRECTORY_MODE })
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, DIRECTORY_MODE)
}

export function writeFileAtomically(path: string, contents: string | Uint8Array): void {
  ensurePrivateDirectory(dirname(path))
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  try {
    writeFileSync(temporary, contents, { mode: FILE_MODE, flag: 'wx' })
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}
