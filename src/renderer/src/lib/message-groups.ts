// Lays out the history: which messages start a new day, and which continue the previous
// sender's run and so need no name or avatar of their own.
import type { Message } from '@shared/messages'
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

export function layoutHistory(messages: readonly Message[]): HistoryRow[] {
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

/**
 * `layoutHistory` of a stretch of the history that hands back the very row object of the last
 * layout while a message keeps its place (the same message object, starting a day or continuing a
 * block as before), and the very array while every row does. The history draws rows keyed by id,
 * and an unchanged object is skipped: a message arriving redraws its own row, not the two hundred
 * drawn above it; a page of older messages loaded above the drawn ones changes nothing drawn.
 */
export class StableHistoryLayout {
  #rows = new WeakMap<Message, HistoryRow>()
  #last: HistoryRow[] = []

  /** The rows of `messages[start, end)`, laid out after the message before them, which decides whether the first starts a day or continues a block. */
  layout(messages: readonly Message[], start = 0, end = messages.length): HistoryRow[] {
    const from = Math.max(0, start - 1)
    const rows = layoutHistory(messages.slice(from, end))
      .slice(start - from)
      .map((row) => {
        const before = this.#rows.get(row.message)
        if (before !== undefined && before.startsDay === row.startsDay && before.continues === row.continues) return before
        this.#rows.set(row.message, row)
        return row
      })
    if (rows.length === this.#last.length && rows.every((row, index) => row === this.#last[index])) return this.#last
    this.#last = rows
    return rows
  }
}
