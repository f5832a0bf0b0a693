// `npm start`'s Electron window keeps its store with an SQLite built for Electron, fetched once
// beside the Node one (scripts/electron-sqlite.mjs). The fetch itself needs the internet, which
// this machine lacks: here it is a stand-in that does what prebuild-install does (writes
// build/Release/better_sqlite3.node in the folder it is run in), so what the script does around
// it is real: where it runs, what it keeps, that it fetches once, and what happens when it cannot.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { electronSqliteBinding, electronSqlitePath } from '../../scripts/electron-sqlite.mjs'

let root: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'parley-electron-sqlite-test-'))
  mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true })
  writeFileSync(join(root, 'node_modules', 'electron', 'package.json'), JSON.stringify({ name: 'electron', version: '41.7.1' }))
  const sqlite = join(root, 'node_modules', 'better-sqlite3-multiple-ciphers')
  mkdirSync(join(sqlite, 'build', 'Release'), { recursive: true })
  writeFileSync(join(sqlite, 'package.json'), JSON.stringify({ name: 'better-sqlite3-multiple-ciphers', version: '12.11.1' }))
  writeFileSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'), 'built for Node')
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

interface Run {
  command: string
  args: string[]
  cwd: string
  hadNodeBuild: boolean
}

/** Stands in for prebuild-install: `status` 0 writes the Electron addon where it runs. */
function fetcher(status: number) {
  const runs: Run[] = []
  const run = (command: string, args: string[], options: { cwd: string }) => {
    runs.push({ command, args, cwd: options.cwd, hadNodeBuild: existsSync(join(options.cwd, 'build')) })
    if (status === 0) {
      mkdirSync(join(options.cwd, 'build', 'Release'), { recursive: true })
      writeFileSync(join(options.cwd, 'build', 'Release', 'better_sqlite3.node'), 'built for Electron 41.7.1')
    }
    return { status }
  }
  return { run, runs }
}

const quiet = { log: () => undefined, warn: () => undefined }

describe("the store's SQLite for npm start's Electron window", () => {
  it('fetches the prebuilt addon for the pinned Electron into a copy of the package, and keeps it beside the one for Node', () => {
    const { run, runs } = fetcher(0)
    const binding = electronSqliteBinding(root, { run, log: quiet })

    expect(binding).toBe(electronSqlitePath(root, '41.7.1'))
    expect(readFileSync(binding ?? '', 'utf8')).toBe('built for Electron 41.7.1')
    expect(runs).toHaveLength(1)
    expect(runs[0]?.command).toMatch(/node_modules[/\\]\.bin[/\\]prebuild-install/)
    expect(runs[0]?.args).toEqual(expect.arrayContaining(['--runtime', 'electron', '--target', '41.7.1', '--arch', process.arch]))
    // Run in a copy without the Node build, which stays as it was, and is removed after.
    expect(runs[0]?.cwd.startsWith(root)).toBe(false)
    expect(runs[0]?.hadNodeBuild).toBe(false)
    expect(existsSync(runs[0]?.cwd ?? '')).toBe(false)
    expect(readFileSync(join(root, 'node_modules', 'better-sqlite3-multiple-ciphers', 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('built for Node')
  })

  it('fetches once: a later start finds it kept', () => {
    const first = fetcher(0)
    electronSqliteBinding(root, { run: first.run, log: quiet })
    const later = fetcher(0)
    expect(electronSqliteBinding(root, { run: later.run, log: quiet })).toBe(electronSqlitePath(root, '41.7.1'))
    expect(later.runs).toEqual([])
  })

  it('says why, keeps nothing, and lets the app start without it when the fetch fails', () => {
    const warnings: string[] = []
    const { run } = fetcher(1)
    expect(electronSqliteBinding(root, { run, log: { log: () => undefined, warn: (text: string) => warnings.push(text) } })).toBeNull()
    expect(warnings).toEqual([expect.stringContaining('keeps no messages on this device')])
    expect(existsSync(electronSqlitePath(root, '41.7.1'))).toBe(false)
  })
})
