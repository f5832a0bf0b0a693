// A small JSON file as a key-value store, for browser mode's preferences and settings. Read once,
// kept in memory, written whole on every change.
import { readFileSync, renameSync } from 'node:fs'
import type { Log } from '../log/log'
import type { KeyValueStore } from './stored-preferences'
import { writeFileAtomically } from './data-dir'

export class JsonFileStore implements KeyValueStore {
  readonly #file: string
  readonly #values: Map<string, unknown>

  constructor(file: string, log: Log) {
    this.#file = file
    this.#values = new Map(Object.entries(readObject(file, log)))
  }

  get(key: string): unknown {
    return this.#values.get(key)
  }

  set(key: string, value: unknown): void {
    this.#values.set(key, value)
    this.#write()
  }

  delete(key: string): void {
    if (this.#values.delete(key)) this.#write()
  }

  #write(): void {
    writeFileAtomically(this.#file, `${JSON.stringify(Object.fromEntries(this.#values), null, 2)}\n`)
  }
}

function readObject(file: string, log: Log): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return {}
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // Reported below.
  }
  // Keep the unreadable file for the user to look at rather than overwriting it.
  const aside = `${file}.unreadable-${Date.now()}`
  renameSync(file, aside)
  log.warn(`${file} was not a JSON object; starting afresh and keeping the old file as ${aside}`)
  return {}
}
