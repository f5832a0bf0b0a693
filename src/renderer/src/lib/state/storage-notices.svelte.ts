// What main says about what this device keeps (a store set aside, a full disk, unsent messages kept
// only in memory): each shows until the person dismisses it; the same words twice show once.
import { listen } from '../main-process'

export interface StorageNotice {
  id: number
  text: string
}

export class StorageNoticesModel {
  list = $state<StorageNotice[]>([])
  #next = 1

  listen(): () => void {
    return listen('storage:notice', ({ text }) => {
      if (this.list.some((notice) => notice.text === text)) return
      this.list = [...this.list, { id: this.#next++, text }]
    })
  }

  dismiss(id: number): void {
    this.list = this.list.filter((notice) => notice.id !== id)
  }
}
