// electron-builder.yml, parsed with the YAML parser electron-builder itself uses: the Electron fuses
// that keep another local process from running the packaged app as Node or attaching a debugger to
// it (and so from reading the token it decrypts), and every key checked against electron-builder's
// own schema. electron-builder refuses an unknown key when it packages, which these machines cannot
// do, so a misspelled fuse would otherwise go unnoticed until someone ran `npm run dist`. Also the
// local store's native SQLite: unpacked beside app.asar, and left to node_modules by both bundlers.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { MainConfigFactory } from 'electron-vite'
import { load } from 'js-yaml'
import { build, type InlineConfig, type Plugin } from 'vite'
import { describe, expect, it } from 'vitest'

const repositoryRoot = resolve(import.meta.dirname, '../..')
const config = load(readFileSync(resolve(repositoryRoot, 'electron-builder.yml'), 'utf8'))

interface JsonSchema {
  $ref?: string
  anyOf?: JsonSchema[]
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  definitions?: Record<string, JsonSchema>
}

/** The schema of the electron-builder this project packages with, found from electron-builder itself. */
function electronBuilderSchema(): JsonSchema {
  const fromRoot = createRequire(resolve(repositoryRoot, 'package.json'))
  const fromElectronBuilder = createRequire(fromRoot.resolve('electron-builder/package.json'))
  return JSON.parse(readFileSync(fromElectronBuilder.resolve('app-builder-lib/scheme.json'), 'utf8')) as JsonSchema
}

const schema = electronBuilderSchema()

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function definitionOf(node: JsonSchema): JsonSchema {
  if (node.$ref === undefined) return node
  const found = schema.definitions?.[node.$ref.replace('#/definitions/', '')]
  if (found === undefined) throw new Error(`The schema has no ${node.$ref}`)
  return found
}

/** Whether `node` describes values of `value`'s shape (object, array or anything else). */
function describesShape(node: JsonSchema, value: unknown): boolean {
  const types = [node.type ?? []].flat()
  if (Array.isArray(value)) return types.includes('array')
  if (isPlainObject(value)) return node.properties !== undefined || types.includes('object')
  return true
}

/**
 * The keys in `value` that the schema does not allow, as paths such as `linux.categroy`. Only keys
 * are checked: a wrong value is electron-builder's to report; a wrong name is what slips by.
 */
function unknownKeys(value: unknown, node: JsonSchema, path: string): string[] {
  const resolved = definitionOf(node)
  if (resolved.anyOf !== undefined) {
    const verdicts = resolved.anyOf
      .map(definitionOf)
      .filter((alternative) => describesShape(alternative, value))
      .map((alternative) => unknownKeys(value, alternative, path))
    // The alternative that fits best speaks: none at all if one fits cleanly.
    return verdicts.sort((a, b) => a.length - b.length)[0] ?? []
  }
  if (Array.isArray(value)) {
    const items = resolved.items
    return items === undefined ? [] : value.flatMap((item, index) => unknownKeys(item, items, `${path}[${index}]`))
  }
  if (!isPlainObject(value) || resolved.properties === undefined) return []
  const properties = resolved.properties
  return Object.entries(value).flatMap(([key, child]) => {
    const where = path === '' ? key : `${path}.${key}`
    const property = properties[key]
    if (property !== undefined) return unknownKeys(child, property, where)
    return resolved.additionalProperties === false ? [where] : []
  })
}

describe('electron-builder.yml', () => {
  it('packs the app into app.asar, which the asar fuses rely on', () => {
    expect(config).toMatchObject({ asar: true })
  })

  it('sets the fuses: no Node mode, NODE_OPTIONS or inspector; asar integrity and only asar; encrypted cookies', () => {
    expect(config).toMatchObject({
      electronFuses: {
        runAsNode: false,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        enableEmbeddedAsarIntegrityValidation: true,
        onlyLoadAppFromAsar: true,
        enableCookieEncryption: true,
        loadBrowserProcessSpecificV8Snapshot: false,
        // The packaged window loads Vite's page from file://, whose module script needs these (see the yml).
        grantFileProtocolExtraPrivileges: true
      }
    })
  })

  it('decides every fuse electron-builder knows, so a new one is not left at its default unseen', () => {
    const knownFuses = Object.keys(definitionOf({ $ref: '#/definitions/FuseOptionsV1' }).properties ?? {})
    // An instruction for signing on macOS, not a fuse.
    const fuses = knownFuses.filter((name) => name !== 'resetAdHocDarwinSignature')
    expect(fuses.length).toBeGreaterThan(0)
    const set = isPlainObject(config) && isPlainObject(config.electronFuses) ? Object.keys(config.electronFuses) : []
    expect(set.sort()).toEqual(fuses.sort())
  })

  it('names only keys that electron-builder knows', () => {
    expect(unknownKeys(config, schema, '')).toEqual([])
  })

  it('would name a misspelled key, at any depth (a check of the check)', () => {
    const misspelled = {
      electronFuses: { runAsNod: false },
      linux: { categroy: 'Network', target: [{ target: 'deb', arhc: ['x64'] }] },
      files: ['out/**', { form: 'out', to: '.' }],
      asar: true
    }
    expect(unknownKeys(misspelled, schema, '')).toEqual([
      'electronFuses.runAsNod',
      'linux.categroy',
      'linux.target[0].arhc',
      'files[1].form'
    ])
  })
})

describe('the packaged app and its environment', () => {
  const compositionRoot = readFileSync(resolve(repositoryRoot, 'src/main/index.ts'), 'utf8')

  it('reads its service settings from the environment only through serviceEnvironment, which a packaged build empties', () => {
    const reads = [...compositionRoot.matchAll(/process\.env\b[^\n]*/g)].map((match) => match[0])
    expect(reads).toEqual(['process.env, app.isPackaged)', 'process.env.ELECTRON_RENDERER_URL'])
    expect(compositionRoot).toContain('const environment = serviceEnvironment(process.env, app.isPackaged)')
  })
})

interface FileFilter {
  (file: string, stat: { isDirectory(): boolean }): boolean
}
/** electron-builder's own filter for the `files` patterns, as it applies them when it packages. */
function packagedFilter(): FileFilter {
  const fromRoot = createRequire(resolve(repositoryRoot, 'package.json'))
  const fromElectronBuilder = createRequire(fromRoot.resolve('electron-builder/package.json'))
  const { FileMatcher } = fromElectronBuilder('app-builder-lib/out/fileMatcher.js') as {
    FileMatcher: new (from: string, to: string, expand: (pattern: string) => string, patterns: unknown) => { createFilter(): FileFilter }
  }
  const files = isPlainObject(config) ? config.files : undefined
  return new FileMatcher(repositoryRoot, '.', (pattern) => pattern, files).createFilter()
}
const aFile = { isDirectory: () => false }
const packaged = (path: string): boolean => packagedFilter()(resolve(repositoryRoot, path), aFile)

describe('what the package takes from out/', () => {
  it("takes Electron's main, preload and renderer, without source maps", () => {
    expect(['out/main/index.js', 'out/main/chunks/core-1a2b.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-1a2b.js'].filter(packaged)).toHaveLength(5)
    expect(packaged('out/main/index.js.map')).toBe(false)
  })

  it("leaves out browser mode's host, which the desktop app never runs", async () => {
    const { default: browserHostBuild } = await import('../../vite.browser.config')
    expect(browserHostBuild.build?.outDir).toBe('out/browser')
    expect(['out/browser/cli.js', 'out/browser/data-dir.js', 'out/browser/chunks/app-1a2b.js'].filter(packaged)).toEqual([])
  })
})

describe("the local store's SQLite, a native addon", () => {
  const driver = 'better-sqlite3-multiple-ciphers'
  const packageJson = JSON.parse(readFileSync(resolve(repositoryRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>
  const lockfile = JSON.parse(readFileSync(resolve(repositoryRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }

  it('is the one SQLite installed, a runtime dependency, which electron-builder packs and rebuilds for Electron', () => {
    const sqlite = Object.keys(lockfile.packages).filter((path) => /sql/i.test(path.split('node_modules/').at(-1) ?? ''))
    expect(sqlite).toEqual([`node_modules/${driver}`])
    expect(packageJson.dependencies).toHaveProperty(driver)
    expect(packageJson.devDependencies).not.toHaveProperty(driver)
    // electron-builder packs `dependencies` only, and rebuilds their native addons for Electron unless told not to.
    expect(isPlainObject(config) ? config.npmRebuild : undefined).not.toBe(false)
  })

  /** electron-builder's own filter for the `asarUnpack` patterns, as it applies them to the files it puts in app.asar. */
  function unpackedFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean {
    const fromRoot = createRequire(resolve(repositoryRoot, 'package.json'))
    const fromElectronBuilder = createRequire(fromRoot.resolve('electron-builder/package.json'))
    const { getFileMatchers } = fromElectronBuilder('app-builder-lib/out/fileMatcher.js') as {
      getFileMatchers: (
        config: unknown,
        name: 'asarUnpack',
        destination: string,
        options: { macroExpander: (pattern: string) => string; customBuildOptions: object; globalOutDir: string; defaultSrc: string }
      ) => { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean }[] | null
    }
    const matchers = getFileMatchers(config, 'asarUnpack', repositoryRoot, {
      macroExpander: (pattern) => pattern,
      customBuildOptions: {},
      globalOutDir: resolve(repositoryRoot, 'dist'),
      defaultSrc: repositoryRoot
    })
    return matchers?.[0]?.createFilter() ?? (() => false)
  }

  it("is kept out of app.asar, as a real file the system loader can open, while the app's code stays inside, under the asar fuses", () => {
    const unpacked = (path: string): boolean => unpackedFilter()(resolve(repositoryRoot, path), { isDirectory: () => false })
    expect(unpacked(`node_modules/${driver}/build/Release/better_sqlite3.node`)).toBe(true)
    expect([`node_modules/${driver}/lib/database.js`, 'out/main/index.js', 'out/renderer/index.html', 'package.json'].filter(unpacked)).toEqual([])
    expect(config).toMatchObject({ asar: true, electronFuses: { onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true } })
  })

  // Each bundler builds one module that imports the driver, with the project's own configuration;
  // the driver must come out as an import of the package, not as its code pasted into the bundle.
  const entry = 'virtual:imports-the-driver'
  const entryPlugin: Plugin = {
    name: 'imports-the-driver',
    resolveId: (id) => (id === entry ? `\0${entry}` : undefined),
    load: (id) => (id === `\0${entry}` ? `import Database from '${driver}'\nexport const open = () => new Database(':memory:')\n` : undefined)
  }
  async function importsOf(config: InlineConfig): Promise<string[]> {
    const rolldownOptions = { ...config.build?.rolldownOptions, input: { entry } }
    const result = await build({
      ...config,
      configFile: false,
      root: repositoryRoot,
      logLevel: 'silent',
      plugins: [...(config.plugins ?? []), entryPlugin],
      build: { ...config.build, write: false, rolldownOptions, rollupOptions: rolldownOptions }
    })
    const outputs = [result].flat() as { output: { type: string; imports?: string[] }[] }[]
    return outputs.flatMap(({ output }) => output).flatMap((chunk) => (chunk.type === 'chunk' ? (chunk.imports ?? []) : []))
  }

  it("stays a package import in electron-vite's main build", async () => {
    const { default: electronVite } = await import('../../electron.vite.config')
    const main = typeof electronVite === 'function' ? undefined : (await electronVite).main
    if (main === undefined) throw new Error('electron.vite.config.ts has no main build')
    const resolved = await new MainConfigFactory({ ...main, build: { ...main.build } }, { mode: 'production' }, { root: repositoryRoot }).build()
    expect(await importsOf(resolved)).toEqual([driver])
  })

  it("stays a package import in browser mode's host build, which plain Node runs from out/browser/", async () => {
    const { default: browserHostBuild } = await import('../../vite.browser.config')
    expect(await importsOf(browserHostBuild)).toEqual([driver])
  })

  /** The files a build of the project's own configuration writes, by name, without writing them. */
  async function filesOf(config: InlineConfig): Promise<string[]> {
    const result = await build({ ...config, configFile: false, root: repositoryRoot, logLevel: 'silent', build: { ...config.build, write: false } })
    const outputs = [result].flat() as { output: { fileName: string }[] }[]
    return outputs.flatMap(({ output }) => output).map((file) => file.fileName)
  }

  // storage/local-store/store-thread.ts starts the store's worker thread from store-worker.js beside
  // the entry that runs it: each build must write it there.
  it("has its worker thread written beside Electron's main entry, packed inside app.asar with the app's code", async () => {
    const { default: electronVite } = await import('../../electron.vite.config')
    const main = typeof electronVite === 'function' ? undefined : (await electronVite).main
    if (main === undefined) throw new Error('electron.vite.config.ts has no main build')
    const resolved = await new MainConfigFactory({ ...main, build: { ...main.build } }, { mode: 'production' }, { root: repositoryRoot }).build()
    const files = await filesOf(resolved)
    expect(files).toEqual(expect.arrayContaining(['index.js', 'store-worker.js']))
    expect(packaged('out/main/store-worker.js')).toBe(true)
    // Electron reads a worker's script from app.asar as it reads the app's own; only the addon goes beside it.
    expect(unpackedFilter()(resolve(repositoryRoot, 'out/main/store-worker.js'), { isDirectory: () => false })).toBe(false)
  })

  it("has its worker thread written beside browser mode's host", async () => {
    const { default: browserHostBuild } = await import('../../vite.browser.config')
    expect(await filesOf(browserHostBuild)).toEqual(expect.arrayContaining(['cli.js', 'store-worker.js']))
  })

  it('would be seen bundled (a check of the check)', async () => {
    const { default: browserHostBuild } = await import('../../vite.browser.config')
    expect(await importsOf({ ...browserHostBuild, ssr: { noExternal: true } })).not.toContain(driver)
  })
})
