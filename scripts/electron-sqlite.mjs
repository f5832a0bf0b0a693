// The store's SQLite for the Electron window of `npm start`. node_modules holds the addon built for
// Node, which the local service, the tests and browser mode load; Electron's main process has a
// different ABI and cannot load it. Rather than rebuild node_modules for Electron (and break
// everything that runs on Node), a copy of the addon built for the pinned Electron is kept beside
// it, fetched once with the package's own prebuild-install (the prebuilt binaries its authors
// publish for each Electron release), and main is told where it is (PARLEY_SQLITE_BINDING). The
// packaged app needs none of this: electron-builder rebuilds the addon inside the package.
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PACKAGE = 'better-sqlite3-multiple-ciphers'

/** Where the addon for one Electron version, platform and architecture is kept. */
export function electronSqlitePath(root, electronVersion, platform = process.platform, arch = process.arch) {
  return join(root, 'node_modules', '.cache', 'parley', `${PACKAGE}-electron-${electronVersion}-${platform}-${arch}.node`)
}

/** The Electron version package.json pins, as installed. */
export function pinnedElectronVersion(root) {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version
}

/**
 * The path of the addon built for the pinned Electron, fetched the first time; null (having said
 * why) when it cannot be had, in which case the app runs without keeping messages on the device.
 */
export function electronSqliteBinding(root, { run = spawnSync, log = console } = {}) {
  const version = pinnedElectronVersion(root)
  const target = electronSqlitePath(root, version)
  if (existsSync(target)) return target
  log.log(`Fetching the store's SQLite built for Electron ${version} (once)…`)
  // A copy of the package to fetch into: the addon in node_modules stays the one for Node.
  const work = mkdtempSync(join(tmpdir(), 'parley-electron-sqlite-'))
  try {
    cpSync(join(root, 'node_modules', PACKAGE), work, { recursive: true, filter: (source) => !source.includes(`${PACKAGE}/build`) })
    const prebuildInstall = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'prebuild-install.cmd' : 'prebuild-install')
    const fetched = run(prebuildInstall, ['--runtime', 'electron', '--target', version, '--arch', process.arch, '--verbose'], {
      cwd: work,
      stdio: 'inherit',
      shell: process.platform === 'win32'
    })
    const built = join(work, 'build', 'Release', 'better_sqlite3.node')
    if (fetched.status !== 0 || !existsSync(built)) {
      log.warn(
        `Could not fetch the store's SQLite for Electron ${version} (it needs internet access once). ` +
          'The app runs, but keeps no messages on this device until it can.'
      )
      return null
    }
    mkdirSync(join(target, '..'), { recursive: true })
    copyFileSync(built, target)
    return target
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
