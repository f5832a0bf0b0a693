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
  // An SSR build leaves every dependency to node_modules already; the store's SQLite is named so it
  // stays there even if the rest is ever bundled: a native addon (.node) cannot be, and its
  // JavaScript finds the addon relative to its own files.
  ssr: { external: ['better-sqlite3-multiple-ciphers'] },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/browser',
    sourcemap: true,
    rolldownOptions: {
      input: {
        cli: resolve('src/main/browser/cli.ts'),
        // `npm start` decides where the data lives with the same code as the host it starts.
        'data-dir': resolve('src/main/storage/data-dir.ts')
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' }
    }
  }
})
