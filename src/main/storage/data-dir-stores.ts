// What browser mode keeps in its data directory, opened in one place so browser mode's composition
// root and the tests that restart an app over the same directory read it the same way.
import { join } from 'node:path'
import type { Log } from '../log/log'
import { ensurePrivateDirectory } from './data-dir'
import { FileTokenVault } from './file-token-vault'
import { FileLocalStores } from './local-store/local-stores'
import { PLAIN_FILE } from './local-store/store-keys'
import { JsonFileStore } from './json-file-store'
import { StoredPreferences } from './stored-preferences'

/**
 * The stores of a data directory (created private if missing): the session token in a file of its
 * own, preferences and settings in `settings.json`, and each account's conversations, messages
 * and unsent messages under `store/`, their keys protected by the files' modes.
 */
export function dataDirStores(
  dataDir: string,
  log: Log
): { settings: JsonFileStore; vault: FileTokenVault; preferences: StoredPreferences; stores: FileLocalStores } {
  ensurePrivateDirectory(dataDir)
  const settings = new JsonFileStore(join(dataDir, 'settings.json'), log)
  return {
    settings,
    vault: new FileTokenVault(dataDir, log),
    preferences: new StoredPreferences(settings, log),
    stores: new FileLocalStores({ directory: join(dataDir, 'store'), sealing: PLAIN_FILE, log })
  }
}
