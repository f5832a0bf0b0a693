// Settings ▸ Storage: what this device keeps of the account's history, the switch that keeps all of
// it, Pause and Resume of its download, and Delete local data. The download itself is backfill.ts.
import type { Settings, SettingsChanges } from '@shared/settings'
import type { StorageState, StorageUsage } from '@shared/storage'
import type { InvokeHandlers } from '@shared/window-api'
import type { Log } from '../log/log'
import { AppError } from './app-error'
import type { Backfill } from './backfill'
import type { LocalStore } from './ports'

type StorageChannel = Extract<keyof InvokeHandlers, `storage:${string}`>
export type StorageHandlers = Pick<InvokeHandlers, StorageChannel>

export interface StorageDependencies {
  backfill: Pick<Backfill, 'paused' | 'pause' | 'resume' | 'enabledChanged' | 'restart' | 'progress'>
  /** The signed-in account's store; null while there is none. */
  store: () => LocalStore | null
  settings: () => Settings
  /** Keeps the settings changed and tells the page (Attention's `updateSettings`). */
  updateSettings: (changes: SettingsChanges) => void
  log: Log
}

export function storageHandlers(deps: StorageDependencies): StorageHandlers {
  const { backfill } = deps

  async function usage(): Promise<StorageUsage | null> {
    const store = deps.store()
    if (store === null) return null
    try {
      const { bytes, limitBytes } = store.pictures.usage()
      return { ...(await store.usage()), pictures: { bytes, limitBytes } }
    } catch (error) {
      deps.log.warn('could not measure the local store', error)
      return null
    }
  }

  async function state(): Promise<StorageState> {
    return {
      keepFullHistory: deps.settings().keepFullHistory,
      paused: backfill.paused,
      download: await backfill.progress(),
      usage: await usage()
    }
  }

  return {
    'storage:get': state,
    'storage:keepFullHistory': async ({ on }) => {
      deps.updateSettings({ keepFullHistory: on })
      backfill.enabledChanged()
      return state()
    },
    'storage:pause': async () => {
      backfill.pause()
      return state()
    },
    'storage:resume': async () => {
      backfill.resume()
      return state()
    },
    'storage:deleteLocalData': async () => {
      const store = deps.store()
      if (store === null) throw new AppError('UNAUTHENTICATED', 'Please sign in first.')
      try {
        await store.clearHistory()
      } catch (error) {
        deps.log.error('could not delete the local history', error)
        throw new AppError('INTERNAL', 'The messages kept on this device could not be deleted. Try again, or restart the app.', { cause: error })
      }
      // What the download knew of the store is gone with it; the app reads from the service again.
      backfill.restart()
      return state()
    }
  }
}
