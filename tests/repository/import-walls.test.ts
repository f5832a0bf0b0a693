// The import walls of .dependency-cruiser.cjs, held two ways: the real tree keeps them, and a
// temporary tree with one forbidden import planted per wall is refused, each by the rule that
// names that wall (so a rule that silently matches nothing fails here, not in a review).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const repositoryRoot = resolve(import.meta.dirname, '../..')
const CONFIG = join(repositoryRoot, '.dependency-cruiser.cjs')
const CLI = join(repositoryRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')
/** What `npm run lint` cruises. */
const SCANNED = ['src', 'server', 'tests', 'scripts']

interface Violation {
  rule: string
  from: string
  to: string
}

/** Runs the project's wall check in `root`, as `npm run lint` does, and lists what it refused. */
function checkWalls(root: string, folders: string[]): Violation[] {
  const run = spawnSync(process.execPath, [CLI, ...folders, '--config', CONFIG, '--output-type', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024
  })
  if (run.stdout === '') throw new Error(`dependency-cruiser did not run (exit ${run.status}): ${run.stderr}`)
  const report = JSON.parse(run.stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] }
  }
  return report.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }))
}

describe('the import walls', () => {
  it('hold in the tree as it is', () => {
    expect(checkWalls(repositoryRoot, SCANNED)).toEqual([])
  })

  describe('refuse a forbidden import', () => {
    const root = mkdtempSync(join(tmpdir(), 'parley-walls-'))
    afterAll(() => rmSync(root, { recursive: true, force: true }))

    /** Each planted file, and what it imports. */
    const tree: Record<string, string[]> = {
      'src/shared/window-api.ts': [],
      'src/shared/reads-node.ts': ["import { join } from 'node:path'"],
      'src/renderer/src/App.svelte.ts': ["import '../../shared/window-api'"],
      'src/renderer/src/reaches-core.ts': ["import '../../main/core/a'"],
      'src/renderer/src/reads-node.ts': ["import { readFileSync } from 'node:fs'"],
      'src/preload/index.ts': ["import { contextBridge } from 'electron'", "import '../shared/window-api'", "import '../main/log/log'"],
      'src/main/index.ts': ["import { app } from 'electron'", "import './desktop/window'"],
      'src/main/log/log.ts': [],
      'src/main/core/a.ts': ["import './b'", "import '../log/log'", "import '../../shared/window-api'"],
      'src/main/core/b.ts': ["import './a'"],
      'src/main/core/knows-the-transport.ts': ["import type { Client } from '../api/client'"],
      'src/main/core/knows-the-shell.ts': ["import type { Window } from '../desktop/window'"],
      'src/main/core/ports.ts': [],
      'src/main/core/answers-the-page.ts': ["import '../window-api/dispatch'"],
      'src/main/window-api/dispatch.ts': ["import '../core/a'", "import '../../shared/window-api'"],
      'src/main/core/opens-storage.ts': ["import type { A } from '../storage/store'"],
      'src/main/storage/store.ts': ["import type { A } from '../core/ports'", "import '../log/log'", "import { join } from 'node:path'"],
      'src/main/storage/reads-electron.ts': ["import { safeStorage } from 'electron'"],
      'src/main/storage/knows-the-shell.ts': ["import type { Window } from '../desktop/window'"],
      'src/main/storage/knows-browser-mode.ts': ["import '../browser/host'"],
      'src/main/storage/knows-the-transport.ts': ["import '../service/connection'"],
      'src/main/storage/reaches-into-core.ts': ["import type { A } from '../core/a'"],
      'src/main/api/client.ts': ["import '../log/log'"],
      'src/main/api/knows-push.ts': ["import '../push/connection'"],
      'src/main/api/keeps-files.ts': ["import '../storage/store'"],
      'src/main/api/borrows-the-service.ts': ["import '../../../server/src/app'"],
      'src/main/push/connection.ts': ["import '../api/client'"],
      'src/main/push/knows-core.ts': ["import type { A } from '../core/a'"],
      'src/main/service/connection.ts': ["import '../api/client'", "import '../push/connection'", "import '../core/a'"],
      'src/main/desktop/window.ts': ["import { BrowserWindow } from 'electron'", "import Store from 'electron-store'", "import '../storage/store'"],
      'src/main/desktop/borrows-browser-mode.ts': ["import '../browser/host'"],
      'src/main/browser/host.ts': ["import '../core/a'", "import '../hosting/policy'", "import '../storage/store'"],
      'src/main/browser/borrows-the-shell.ts': ["import '../desktop/window'"],
      'src/main/hosting/policy.ts': ['import { BrowserWindow } from "electron"'],
      'server/src/app.ts': [],
      'server/src/borrows-the-app.ts': ["import '../../src/shared/window-api'"],
      // The same walls, crossed through the project's path aliases.
      'server/src/borrows-the-app-by-alias.ts': ["import '@shared/window-api'"],
      'src/renderer/src/lib/page.ts': [],
      'src/preload/borrows-the-page.ts': ["import '$lib/page'"],
      'src/shared/borrows-the-page.ts': ["import type { A } from '$lib/page'"],
      'tests/spans-both.ts': ["import '../server/src/app'", "import '../src/main/core/a'"]
    }
    for (const [file, imports] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, file)), { recursive: true })
      writeFileSync(join(root, file), `${imports.join('\n')}\nexport type A = string\nexport type Client = string\nexport type Window = string\n`)
    }
    // The project's own path aliases, so an import written through one resolves as it does in the project.
    const { paths } = (JSON.parse(readFileSync(join(repositoryRoot, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'preserve', moduleResolution: 'bundler', paths } }))
    // Stand-ins for Electron's packages, so they resolve to the paths they have in the project.
    for (const name of ['electron', 'electron-store']) {
      mkdirSync(join(root, 'node_modules', name), { recursive: true })
      writeFileSync(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, main: 'index.js' }))
      writeFileSync(join(root, 'node_modules', name, 'index.js'), '')
    }

    const violations = checkWalls(root, ['src', 'server', 'tests'])
    const rulesFor = (from: string, to: string): string[] =>
      violations.filter((violation) => violation.from === from && violation.to === to).map((violation) => violation.rule).sort()

    it.each([
      ['no-cycles', 'src/main/core/a.ts', 'src/main/core/b.ts'],
      ['renderer-sees-renderer-and-shared', 'src/renderer/src/reaches-core.ts', 'src/main/core/a.ts'],
      ['renderer-has-no-node-or-electron', 'src/renderer/src/reads-node.ts', 'fs'],
      ['preload-sees-shared', 'src/preload/index.ts', 'src/main/log/log.ts'],
      ['shared-stands-alone', 'src/shared/reads-node.ts', 'path'],
      ['electron-stays-in-the-shell', 'src/main/hosting/policy.ts', 'node_modules/electron/index.js'],
      ['core-knows-no-host-and-no-transport', 'src/main/core/knows-the-transport.ts', 'src/main/api/client.ts'],
      ['core-knows-no-host-and-no-transport', 'src/main/core/answers-the-page.ts', 'src/main/window-api/dispatch.ts'],
      ['api-and-push-sit-below-core', 'src/main/push/knows-core.ts', 'src/main/core/a.ts'],
      ['api-and-push-sit-below-core', 'src/main/api/keeps-files.ts', 'src/main/storage/store.ts'],
      ['api-knows-no-push', 'src/main/api/knows-push.ts', 'src/main/push/connection.ts'],
      ['core-reaches-storage-through-ports', 'src/main/core/opens-storage.ts', 'src/main/storage/store.ts'],
      ['storage-knows-no-host', 'src/main/storage/reads-electron.ts', 'node_modules/electron/index.js'],
      ['storage-knows-no-host', 'src/main/storage/knows-the-shell.ts', 'src/main/desktop/window.ts'],
      ['storage-knows-no-host', 'src/main/storage/knows-browser-mode.ts', 'src/main/browser/host.ts'],
      ['storage-knows-no-host', 'src/main/storage/knows-the-transport.ts', 'src/main/service/connection.ts'],
      ['storage-knows-core-only-by-its-ports', 'src/main/storage/reaches-into-core.ts', 'src/main/core/a.ts'],
      ['only-browser-mode-uses-browser', 'src/main/desktop/borrows-browser-mode.ts', 'src/main/browser/host.ts'],
      ['only-the-electron-shell-uses-desktop', 'src/main/browser/borrows-the-shell.ts', 'src/main/desktop/window.ts'],
      ['service-stays-apart-from-the-app', 'server/src/borrows-the-app.ts', 'src/shared/window-api.ts'],
      ['service-stays-apart-from-the-app', 'server/src/borrows-the-app-by-alias.ts', 'src/shared/window-api.ts'],
      ['preload-sees-shared', 'src/preload/borrows-the-page.ts', 'src/renderer/src/lib/page.ts'],
      ['shared-stands-alone', 'src/shared/borrows-the-page.ts', 'src/renderer/src/lib/page.ts'],
      ['app-stays-apart-from-the-service', 'src/main/api/borrows-the-service.ts', 'server/src/app.ts']
    ])('%s: %s → %s', (rule, from, to) => {
      expect(rulesFor(from, to)).toContain(rule)
    })

    it('including a type-only import into a host', () => {
      expect(rulesFor('src/main/core/knows-the-shell.ts', 'src/main/desktop/window.ts')).toEqual([
        'core-knows-no-host-and-no-transport',
        'only-the-electron-shell-uses-desktop'
      ])
    })

    it('and nothing the layering allows', () => {
      const allowed = [
        ['src/renderer/src/App.svelte.ts', 'src/shared/window-api.ts'],
        ['src/preload/index.ts', 'node_modules/electron/index.js'],
        ['src/main/index.ts', 'src/main/desktop/window.ts'],
        ['src/main/desktop/window.ts', 'node_modules/electron-store/index.js'],
        ['src/main/push/connection.ts', 'src/main/api/client.ts'],
        ['src/main/service/connection.ts', 'src/main/core/a.ts'],
        ['src/main/window-api/dispatch.ts', 'src/main/core/a.ts'],
        ['src/main/browser/host.ts', 'src/main/hosting/policy.ts'],
        ['src/main/browser/host.ts', 'src/main/storage/store.ts'],
        ['src/main/desktop/window.ts', 'src/main/storage/store.ts'],
        ['src/main/storage/store.ts', 'src/main/core/ports.ts'],
        ['src/main/storage/store.ts', 'src/main/log/log.ts'],
        ['src/main/storage/store.ts', 'path'],
        ['tests/spans-both.ts', 'server/src/app.ts'],
        ['tests/spans-both.ts', 'src/main/core/a.ts']
      ]
      for (const [from, to] of allowed) expect(rulesFor(from ?? '', to ?? ''), `${from} → ${to}`).toEqual([])
    })
  })
})
