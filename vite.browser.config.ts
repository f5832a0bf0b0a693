// Browser mode's host (src/main/browser/cli.ts), built the way electron-vite builds Electron's main:
// one Node program in out/browser/, its dependencies left to node_modules, with source maps. It
// runs with plain `node`, so starting browser mode compiles nothing. Not part of the Electron
// package (electron-builder.yml leaves out/browser/ out).
import { resolve } from 'node:path'
import { defineConfig } from 'vite'

export default defineConfig({
  // A Node program: nothing to copy from a public folder.
  publicDir: false,
  // `@shared/*`, as tsconfig.base.json sets it.
  resolve: { tsconfigPaths: true },
  // Every dependency is bundled in, but the store's SQLite: Node then loads one file at start
  // instead of resolving, reading and wrapping some hundred modules of faye, ws, zod and the rest
  // (measured: the host's loading took 0.57 times the CPU it took with them left to node_modules).
  // A native addon (.node) cannot be bundled, and its JavaScript finds the addon beside its own files.
  ssr: { noExternal: true, external: ['better-sqlite3-multiple-ciphers'] },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/browser',
    sourcemap: true,
    rolldownOptions: {
      input: {
        cli: resolve('src/main/browser/cli.ts'),
        // The app cli.js imports once the store's thread is starting: a file of its own, so that the
        // bench can time Node loading it alone (scripts/bench/cold-start.ts).
        app: resolve('src/main/browser/app.ts'),
        // `npm start` decides where the data lives with the same code as the host it starts.
        'data-dir': resolve('src/main/storage/data-dir.ts'),
        // The local store's SQL runs in a worker thread, started from this file beside cli.js.
        'store-worker': resolve('src/main/storage/local-store/store-worker.ts')
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' }
    }
  }
})
