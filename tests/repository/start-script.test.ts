// `npm start` where the Electron binary is missing: the advice on getting it, Electron's own
// installer that the advice and `--install-electron` use, and the decision to open browser mode in
// the default browser. No browser is launched here: each decision is taken for a platform and an
// environment the test gives, never this machine's, and the openers run are Node itself.
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { electronInstaller, installerEnvironment, missingElectronAdvice } from '../../scripts/electron-shell.mjs'
import { browserOpener, openInBrowser } from '../../scripts/open-browser.mjs'

const repositoryRoot = resolve(import.meta.dirname, '../..')
const url = 'http://127.0.0.1:41234/#secret=abc-DEF_123'

describe('getting the desktop shell', () => {
  it('advises a flag of npm start and the installer in node_modules/electron, and no package to fetch', () => {
    const advice = missingElectronAdvice()
    expect(advice).toContain('`npm start -- --install-electron`')
    expect(advice).toContain('`node node_modules/electron/install.js`')
    // npx, npm exec/x, pnpm dlx and yarn dlx all fetch a package by name from the registry.
    expect(advice).not.toMatch(/\bnpx\b|\bnpm (exec|x)\b|\bdlx\b/)
  })

  it("runs Electron's own installer: the electron package's install.js, the version package.json pins", () => {
    const installer = electronInstaller()
    expect(installer).toBe(resolve(repositoryRoot, 'node_modules/electron/install.js'))
    const electron = JSON.parse(readFileSync(resolve(dirname(installer), 'package.json'), 'utf8')) as { name: string; version: string }
    const project = JSON.parse(readFileSync(resolve(repositoryRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
    expect(electron).toMatchObject({ name: 'electron', version: project.devDependencies.electron })
    // It downloads with the checksums shipped beside it.
    expect(readFileSync(installer, 'utf8')).toContain("require('./checksums.json')")
  })

  it('runs the installer without the settings that would make it skip the download or the shipped checksums', () => {
    const environment = installerEnvironment({
      PATH: '/usr/bin',
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      electron_use_remote_checksums: '1',
      npm_config_electron_use_remote_checksums: 'true',
      electron_config_cache: '/tmp/cache'
    })
    expect(environment).toEqual({ PATH: '/usr/bin', electron_config_cache: '/tmp/cache' })
  })

  it('says the same in the README, which names no package to fetch either', () => {
    const readme = readFileSync(resolve(repositoryRoot, 'README.md'), 'utf8')
    expect(readme).toContain('npm start -- --install-electron')
    expect(readme).not.toMatch(/npx install-electron/)
  })
})

describe('opening browser mode in the default browser', () => {
  const linuxDesktop = { DISPLAY: ':0' }

  it('uses xdg-open on Linux where there is an X11 or a Wayland display', () => {
    expect(browserOpener(url, { platform: 'linux', environment: linuxDesktop })).toEqual({ opener: { command: 'xdg-open', args: [url] } })
    expect(browserOpener(url, { platform: 'linux', environment: { WAYLAND_DISPLAY: 'wayland-0' } })).toEqual({ opener: { command: 'xdg-open', args: [url] } })
    expect(browserOpener(url, { platform: 'freebsd', environment: linuxDesktop })).toEqual({ opener: { command: 'xdg-open', args: [url] } })
  })

  it('opens nothing on Linux without a display (a console, SSH, CI), and says why', () => {
    for (const environment of [{}, { DISPLAY: '' }, { WAYLAND_DISPLAY: '' }, { TERM: 'xterm' }]) {
      expect(browserOpener(url, { platform: 'linux', environment })).toEqual({ skip: 'there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)' })
    }
  })

  it('uses open on macOS, and start through cmd on Windows with the address quoted once', () => {
    expect(browserOpener(url, { platform: 'darwin', environment: {} })).toEqual({ opener: { command: 'open', args: [url] } })
    expect(browserOpener(url, { platform: 'win32', environment: {} })).toEqual({
      opener: { command: 'cmd', args: ['/d', '/s', '/c', `start "" "${url}"`], windowsVerbatimArguments: true }
    })
  })

  it('opens nothing when --no-open is given, wherever it runs', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(browserOpener(url, { platform, environment: linuxDesktop, noOpen: true })).toEqual({ skip: '--no-open was given' })
    }
  })

  it('takes an opener that exits with 0 as done, and prints nothing', async () => {
    const lines: string[] = []
    expect(await openInBrowser({ command: process.execPath, args: ['-e', ''] }, { log: (line) => lines.push(line) })).toBe(true)
    expect(lines).toEqual([])
  })

  it('turns an opener that fails into one line of advice, not an error', async () => {
    const lines: string[] = []
    const opened = await openInBrowser({ command: process.execPath, args: ['-e', 'process.exit(3)'] }, { log: (line) => lines.push(line) })
    expect(opened).toBe(false)
    expect(lines).toEqual([`Could not open a browser (${process.execPath} failed with exit code 3): open the address above yourself.`])
  })

  it('turns an opener that is not installed into one line of advice, not an error', async () => {
    const lines: string[] = []
    const opened = await openInBrowser({ command: 'parley-no-such-opener', args: [url] }, { log: (line) => lines.push(line) })
    expect(opened).toBe(false)
    expect(lines).toEqual(['Could not open a browser (parley-no-such-opener is not installed): open the address above yourself.'])
  })
})
