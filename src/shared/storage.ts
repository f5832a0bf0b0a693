// Settings ▸ Storage: what this device keeps of the account's history, and the download of the rest
// of it, as main reports them (core/storage-handlers.ts, core/backfill.ts).
import type { ConversationId } from './conversation-id'

/** The download of every conversation's older history, as it stands. */
export interface HistoryDownload {
  /**
   * `off`: Keep full history is off; `paused`: the user paused it; `waiting`: it waits to begin or
   * to go on (catching up first, push not connected, the service asking it to slow down);
   * `downloading`: a page is on its way; `done`: every listed conversation is kept from its start.
   */
  state: 'off' | 'paused' | 'waiting' | 'downloading' | 'done'
  /** Listed conversations kept from their very first message. */
  conversationsDone: number
  /** Listed conversations. */
  conversations: number
  /** The conversation being downloaded, or the last one, while the download is not done. */
  current: DownloadingConversation | null
}

export interface DownloadingConversation {
  conversationId: ConversationId
  name: string
  /** Its messages kept on this device. */
  kept: number
  /** How many messages the service last said it has; null when it did not say. */
  total: number | null
}

/** What the store holds, in all. */
export interface StorageUsage {
  messages: number
  conversations: number
  /** The database's size on disk. */
  bytes: number
  /** What the pictures of kept messages take, and the most they may (Settings ▸ Storage's `Space for pictures`). */
  pictures: { bytes: number; limitBytes: number }
}

export interface StorageState {
  keepFullHistory: boolean
  /** The download is paused by the user, until they resume it (kept across restarts). */
  paused: boolean
  download: HistoryDownload
  /** Null when nothing is kept on this device (signed out, or the store could not be opened). */
  usage: StorageUsage | null
}
