import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

/** `@shared/*` and `$lib/*`, as tsconfig.base.json sets them, so the bundles resolve what the type checker does. */
const resolve_ = { tsconfigPaths: true }

export default defineConfig({
  main: {
    resolve: resolve_,
    build: {
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // The local store's SQL runs in a worker thread, started from this file beside index.js
          // (storage/local-store/store-thread.ts finds it there, inside app.asar once packaged).
          'store-worker': resolve('src/main/storage/local-store/store-worker.ts')
        },
        // electron-vite leaves package.json's dependencies to node_modules already; the store's
        // SQLite is named so it stays there whatever that setting becomes: a native addon cannot be
        // bundled, and electron-builder rebuilds it for Electron and unpacks it beside app.asar.
        external: ['better-sqlite3-multiple-ciphers']
      }
    }
  },
  preload: {
    resolve: resolve_,
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed window cannot load an ES module preload.
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve('src/renderer'),
    resolve: resolve_,
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
      // electron-vite leaves the renderer unminified by default, as if reading it from disk cost
      // nothing; but every start parses it before the first row shows, in Electron and more so in
      // browser mode, where it comes over HTTP and Chromium parses it on a background thread before
      // running it (48 ms for the 811 KB unminified bundle, traced on two cores). Minified it is
      // 347 KB: a fresh page loads it and runs it to DOMContentLoaded in a median 137 ms against
      // 161 (twelve loads of each, in turn).
      minify: true
    },
    plugins: [svelte({ configFile: resolve('svelte.config.js') })]
  }
})
