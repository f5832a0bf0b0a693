import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { svelteTesting } from '@testing-library/svelte/vite'

/**
 * The projects whose tests open local stores start each store's worker thread from one build of it
 * made for the run, not from its sources through tsx (tests/support/store-worker-build.ts says why).
 */
const builtStoreWorker = {
  globalSetup: ['tests/support/store-worker-build.ts'],
  setupFiles: ['tests/support/store-worker-setup.ts']
}

export default defineConfig({
  // `@shared/*` and `$lib/*`, as tsconfig.base.json sets them; every project below extends this.
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/main/**/*.test.ts', 'src/shared/**/*.test.ts'],
          ...builtStoreWorker
        }
      },
      {
        extends: true,
        plugins: [svelte({ configFile: resolve('svelte.config.js') }), svelteTesting()],
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.ts'],
          setupFiles: ['src/renderer/test-setup.ts']
        }
      },
      {
        extends: true,
        test: {
          name: 'service',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          testTimeout: 20_000
        }
      },
      {
        extends: true,
        test: {
          name: 'repository',
          environment: 'node',
          include: ['tests/repository/**/*.test.ts'],
          testTimeout: 60_000
        }
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          ...builtStoreWorker,
          testTimeout: 30_000
        }
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          ...builtStoreWorker,
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false
        }
      }
    ]
  }
})
