// Settings ▸ Storage in words: what is kept, and how far the download of full history has come.
// Numbers are grouped the English way, as the rest of the app's words are English.
import type { HistoryDownload, StorageUsage } from '@shared/storage'

const whole = new Intl.NumberFormat('en')
const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

function count(n: number, one: string, many: string): string {
  return `${whole.format(n)} ${n === 1 ? one : many}`
}

/**
 * `12,345 messages in 42 conversations, 18.2 MB; pictures 35.0 MB of 500 MB`: megabytes of a
 * million bytes, as disks count them.
 */
export function usageWords(usage: StorageUsage): string {
  const { pictures } = usage
  return `${count(usage.messages, 'message', 'messages')} in ${count(usage.conversations, 'conversation', 'conversations')}, ${megabytes(usage.bytes)}; pictures ${megabytes(pictures.bytes)} of ${whole.format(pictures.limitBytes / 1_000_000)} MB`
}

function megabytes(bytes: number): string {
  return `${oneDecimal.format(bytes / 1_000_000)} MB`
}

/** `Launch Team: 1,200 of about 10,000 messages`, for the conversation under way; null when there is none. */
export function currentWords(download: HistoryDownload): string | null {
  const current = download.current
  if (current === null) return null
  // The service's count is from when the list was read: more may be kept by now.
  if (current.total === null) return `${current.name}: ${count(current.kept, 'message', 'messages')}`
  return `${current.name}: ${whole.format(current.kept)} of about ${count(Math.max(current.total, current.kept), 'message', 'messages')}`
}

/** `3 of 42 conversations`: what the progressbar measures. */
export function conversationsWords(download: HistoryDownload): string {
  return `${whole.format(download.conversationsDone)} of ${count(download.conversations, 'conversation', 'conversations')}`
}

/** Why nothing moves, when it does not. */
export function stateWords(download: HistoryDownload): string | null {
  switch (download.state) {
    case 'paused':
      return 'Paused. Nothing more is downloaded until you resume.'
    case 'waiting':
      return 'Waiting: new messages and the connection come first.'
    default:
      return null
  }
}
