// The Electron binary for `npm start`: whether it is here, and getting it with Electron's own
// installer, the install.js that `npm ci` put in node_modules/electron. It downloads the binary of
// the pinned version and checks it against the checksums shipped in that package. npm does not run
// it at install time here (package.json's allowScripts), since machines without GitHub access
// cannot download the binary and `npm ci` must still succeed on them.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** The flag of `npm start` that runs Electron's installer first. */
export const INSTALL_FLAG = '--install-electron'

/** The Electron binary's path, or null where it was never downloaded. */
export function electronBinary() {
  try {
    const path = require('electron')
    return typeof path === 'string' && existsSync(path) ? path : null
  } catch {
    // node_modules/electron without its binary throws "Electron failed to install correctly".
    return null
  }
}

/** Electron's own installer, from the electron package that package.json pins. */
export function electronInstaller() {
  return require.resolve('electron/install.js')
}

/**
 * What to tell a person without the binary. It names only what the project already has: a flag of
 * `npm start` and the installer inside node_modules/electron, never a package to fetch and run.
 */
export function missingElectronAdvice() {
  return (
    'Desktop shell: the Electron binary is not installed here, so the app runs in browser mode. ' +
    `To get it, run \`npm start -- ${INSTALL_FLAG}\`: it runs Electron's own installer ` +
    '(`node node_modules/electron/install.js`, which downloads the binary of the pinned version ' +
    'and checks it against the checksums in that package; it needs internet access), then starts the desktop app.'
  )
}

/**
 * The installer's environment: this one without the settings that would make it do nothing
 * (ELECTRON_SKIP_BINARY_DOWNLOAD, which some set for `npm ci`) or skip the shipped checksums.
 */
export function installerEnvironment(environment = process.env) {
  const skipped = new Set(['ELECTRON_SKIP_BINARY_DOWNLOAD', 'electron_use_remote_checksums', 'npm_config_electron_use_remote_checksums'])
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !skipped.has(name)))
}

/** Runs Electron's installer, its output on this terminal; returns the binary's path, or null if it failed. */
export function installElectron({ log = console.log } = {}) {
  const installer = electronInstaller()
  log(`Installing the Electron binary: node ${installer}`)
  const { status, error } = spawnSync(process.execPath, [installer], { stdio: 'inherit', env: installerEnvironment() })
  const binary = electronBinary()
  if (status === 0 && error === undefined && binary !== null) return binary
  log("Electron's installer did not install the binary (see above); carrying on in browser mode.")
  return null
}
