// Lays out the history: which messages start a new day, and which continue the previous
// sender's run and so need no name or avatar of their own.
import type { Message } from '../../../shared/domain'
import { sameDay } from './time-format'

/** Consecutive messages from one sender within this gap read as one block. */
const GROUP_GAP_SECONDS = 5 * 60

export interface HistoryRow {
  message: Message
  /** First message of its day: show a divider above it. */
  startsDay: boolean
  /** Continues the previous message's block: no sender name or avatar. */
  continues: boolean
}

export function layoutHistory(messages: Message[]): HistoryRow[] {
  return messages.map((message, index) => {
    const previous = index > 0 ? messages[index - 1] : undefined
    const startsDay = !previous || !sameDay(previous.createdAt, message.createdAt)
    const continues =
      previous !== undefined &&
      !startsDay &&
      !message.system &&
      !previous.system &&
      previous.senderId === message.senderId &&
      message.createdAt - previous.createdAt <= GROUP_GAP_SECONDS
    return { message, startsDay, continues }
  })
}
