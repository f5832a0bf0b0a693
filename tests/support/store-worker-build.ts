// Vitest's global setup: one build of the local store's worker thread for the whole run, made as
// browser mode's host makes it (vite.browser.config.ts), so that every store a test opens starts
// its thread from plain JavaScript. From sources, each thread would otherwise load tsx and compile
// the worker afresh, which takes the better part of a second on a busy machine: slower than the
// sign-ins and starts the tests wait on, where the built app's thread takes a tenth of that.
// It is written under node_modules/.cache, where the worker's import of the native SQLite
// resolves as it does from out/browser/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import type { TestProject } from 'vitest/node'

const repositoryRoot = resolve(import.meta.dirname, '../..')

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built worker's file (store-worker.js). */
    storeWorker: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { default: browserHostBuild } = await import('../../vite.browser.config')
  const cache = join(repositoryRoot, 'node_modules/.cache/parley-store-worker')
  mkdirSync(cache, { recursive: true })
  const outDir = mkdtempSync(join(cache, 'run-'))
  await build({
    ...browserHostBuild,
    configFile: false,
    root: repositoryRoot,
    logLevel: 'silent',
    build: {
      ...browserHostBuild.build,
      outDir,
      emptyOutDir: true,
      sourcemap: true,
      rolldownOptions: {
        ...browserHostBuild.build?.rolldownOptions,
        input: { 'store-worker': resolve(repositoryRoot, 'src/main/storage/local-store/store-worker.ts') }
      }
    }
  })
  project.provide('storeWorker', join(outDir, 'store-worker.js'))
  return () => rmSync(outDir, { recursive: true, force: true })
}
