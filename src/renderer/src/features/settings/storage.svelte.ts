// Settings ▸ Storage: what this device keeps, the switch that keeps all of it, the download's
// progress as main reports it (`storage:progress`), and Delete local data.
import type { HistoryDownload, StorageState } from '@shared/storage'
import { call, listen, messageOf } from '$lib/main-process'
import { Loadable } from '$lib/state/loadable.svelte'

export class StorageModel {
  readonly state = new Loadable<StorageState | null>({ initial: null, status: 'loading', fetch: () => call('storage:get', {}) })
  /** Why the last change was refused. */
  error = $state<string | null>(null)
  /** A change is on its way: the controls wait for it. */
  busy = $state(false)

  /** Follows the download while the tab shows; returns what stops that. */
  follow(): () => void {
    return listen('storage:progress', (download) => this.#progressed(download))
  }

  setKeepFullHistory(on: boolean): Promise<void> {
    return this.#change(() => call('storage:keepFullHistory', { on }))
  }

  pause(): Promise<void> {
    return this.#change(() => call('storage:pause', {}))
  }

  resume(): Promise<void> {
    return this.#change(() => call('storage:resume', {}))
  }

  deleteLocalData(): Promise<void> {
    return this.#change(() => call('storage:deleteLocalData', {}))
  }

  async #change(request: () => Promise<StorageState>): Promise<void> {
    if (this.busy) return
    this.busy = true
    this.error = null
    try {
      this.state.set(await request())
    } catch (error) {
      this.error = messageOf(error)
    } finally {
      this.busy = false
    }
  }

  #progressed(download: HistoryDownload): void {
    const shown = this.state.value
    if (shown === null) return
    this.state.edit((state) => (state === null ? state : { ...state, download }))
    // What is kept grows with the download: measured again as each conversation is finished, not
    // on every page, since measuring counts the whole store.
    const moved = shown.download.current?.conversationId !== download.current?.conversationId || shown.download.state !== download.state
    if (moved) void this.state.refresh()
  }
}
