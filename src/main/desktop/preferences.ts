// Preferences kept in a key-value store: electron-store in the desktop app, a JSON file in browser
// mode. Whatever is read back is checked, because the file is the user's and may be edited or old.
// No Electron import here: browser mode uses this class too.
import { z } from 'zod'
import type { Log, PreferenceValues, Preferences } from '../core/ports'

export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
}

/** How to check each saved value; a key without a schema is handed over as read. */
export type PreferenceSchemas = { [K in keyof PreferenceValues]?: z.ZodType<PreferenceValues[K]> }

// TODO(core): a complete table (outbox, account) belongs next to PreferenceValues in core/ports.ts.
export const basicPreferenceSchemas: PreferenceSchemas = {
  deviceId: z.string().min(1).max(200),
  lastRead: z.record(z.string(), z.string()),
  windowBounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
}

export class StoredPreferences implements Preferences {
  readonly #store: KeyValueStore
  readonly #log: Log
  readonly #schemas: PreferenceSchemas

  constructor(store: KeyValueStore, log: Log, schemas: PreferenceSchemas = basicPreferenceSchemas) {
    this.#store = store
    this.#log = log
    this.#schemas = schemas
  }

  get<K extends keyof PreferenceValues>(key: K): PreferenceValues[K] | undefined {
    const raw = this.#store.get(key)
    if (raw === undefined) return undefined
    const schema: z.ZodType<PreferenceValues[K]> | undefined = this.#schemas[key]
    if (schema === undefined) return raw as PreferenceValues[K]
    const parsed = schema.safeParse(raw)
    if (parsed.success) return parsed.data
    this.#log.warn(`ignored a malformed saved preference "${key}"`, parsed.error.issues)
    return undefined
  }

  set<K extends keyof PreferenceValues>(key: K, value: PreferenceValues[K]): void {
    this.#store.set(key, value)
  }
}
