// The import walls of the project, checked by `npm run lint` and by tests/repository/import-walls.test.ts.
// Each rule names the wall it keeps; README.md ("How it is built") draws the picture they guard.
// Type-only imports count: a wall a type can cross is a wall in name only.

/** Electron's own modules: only the Electron shell (desktop/, the composition root) and preload may load them. */
const ELECTRON = '^node_modules/(electron|electron-store)/'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle means two modules are one: split them so the arrows run one way.',
      severity: 'error',
      from: {},
      to: { circular: true }
    },
    {
      name: 'renderer-sees-renderer-and-shared',
      comment: 'The renderer runs sandboxed in a page: it reaches main only through window.api, and shares only src/shared.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { pathNot: ['^src/(renderer|shared)/', '^node_modules/'] }
    },
    {
      name: 'renderer-has-no-node-or-electron',
      comment: 'Nothing of Node or Electron exists in the sandboxed page.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] }
    },
    {
      name: 'preload-sees-shared',
      comment: 'Preload exposes the contract and nothing else: it knows only src/shared and Electron.',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { pathNot: ['^src/(preload|shared)/', ELECTRON] }
    },
    {
      name: 'shared-stands-alone',
      comment: 'src/shared is read by renderer, preload and main alike: it imports nothing else, not even Node.',
      severity: 'error',
      from: { path: '^src/shared/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: '^src/shared/' }
    },
    {
      name: 'electron-stays-in-the-shell',
      comment:
        'Everything but the Electron shell runs in plain Node (tests, browser mode), where importing Electron throws. scripts/electron-shell.mjs only asks the electron package where its binary is, which its index.js answers in plain Node.',
      severity: 'error',
      from: { pathNot: ['^src/main/desktop/', '^src/main/index\\.ts$', '^src/preload/', '^scripts/electron-shell\\.mjs$'] },
      to: { path: ELECTRON }
    },
    {
      name: 'core-knows-no-host-and-no-transport',
      comment:
        'Core is the app without a host: it imports no desktop/ or browser/, and reaches the service only through its ports (core/ports.ts), never api/, push/ or service/.',
      severity: 'error',
      from: { path: '^src/main/core/' },
      to: { path: '^src/main/(desktop|browser|api|push|service|window-api)/' }
    },
    {
      name: 'core-reaches-storage-through-ports',
      comment:
        'What core keeps goes through its ports (Preferences, TokenVault in core/ports.ts), so each host picks where it lands (electron-store and the keychain, or files) and core runs on memory in tests.',
      severity: 'error',
      from: { path: '^src/main/core/' },
      to: { path: '^src/main/storage/' }
    },
    {
      name: 'storage-knows-no-host',
      comment:
        'storage/ is shared by both hosts and runs in plain Node: it imports no Electron (its stores stay in desktop/), no host, and nothing that talks to the service or the page.',
      severity: 'error',
      from: { path: '^src/main/storage/' },
      to: { path: ['^src/main/(desktop|browser|api|push|service|window-api|hosting)/', '^src/main/index\\.ts$', ELECTRON] }
    },
    {
      name: 'storage-knows-core-only-by-its-ports',
      comment: 'storage/ implements the ports of core and knows nothing else of it, so core can change inside without touching what is on disk.',
      severity: 'error',
      from: { path: '^src/main/storage/' },
      to: { path: '^src/main/core/', pathNot: '^src/main/core/ports\\.ts$' }
    },
    {
      name: 'api-and-push-sit-below-core',
      comment: 'The REST and push clients know the service, not the app: nothing from core, service/, window-api/, storage/ or a host.',
      severity: 'error',
      from: { path: '^src/main/(api|push)/' },
      to: { path: '^src/main/(core|service|window-api|storage|hosting|desktop|browser)/' }
    },
    {
      name: 'api-knows-no-push',
      comment: 'push/ decodes with api/; the other way round would tie REST to the push client.',
      severity: 'error',
      from: { path: '^src/main/api/' },
      to: { path: '^src/main/push/' }
    },
    {
      name: 'only-the-electron-shell-uses-desktop',
      comment: 'desktop/ is the Electron host: only the Electron composition root builds it. Browser mode and shared code never reach in.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/main/desktop/', '^src/main/index\\.ts$'] },
      to: { path: '^src/main/desktop/' }
    },
    {
      name: 'only-browser-mode-uses-browser',
      comment: 'browser/ is the browser-mode host; nothing else in src/ depends on it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/main/browser/' },
      to: { path: '^src/main/browser/' }
    },
    {
      name: 'service-stays-apart-from-the-app',
      comment: 'server/ is the service; src/ is a client of it that knows it only by its addresses.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' }
    },
    {
      name: 'app-stays-apart-from-the-service',
      comment: 'The app must work against any deployment, so it never borrows the local service code.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^tests/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.svelte', '.json', '.d.ts']
    }
  }
}
