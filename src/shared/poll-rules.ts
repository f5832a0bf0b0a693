// What PL1 accepts (docs/protocol.md §13), checked where the user types it and again in main, so a
// poll the service would refuse is stopped with a reason the user can act on.
import type { NewPoll } from './polls'

export const MIN_POLL_OPTIONS = 2
export const MAX_POLL_OPTIONS = 10
export const MAX_POLL_TEXT = 160
/** PL1's furthest expiry: a year. */
export const MAX_POLL_SECONDS = 31_536_000

/** Why the service would refuse this poll, in the user's words; null when it is fine. */
export function pollProblem(poll: NewPoll, nowSeconds: number): string | null {
  const subject = poll.subject.trim()
  if (subject === '') return 'Write a question for the poll.'
  if (subject.length > MAX_POLL_TEXT) return `The question is too long: keep it to ${MAX_POLL_TEXT} characters.`
  const options = poll.options.map((option) => option.trim())
  if (options.some((option) => option === '')) return 'Fill in every option, or remove the empty ones.'
  if (options.length < MIN_POLL_OPTIONS) return `A poll needs at least ${MIN_POLL_OPTIONS} options.`
  if (options.length > MAX_POLL_OPTIONS) return `A poll can have at most ${MAX_POLL_OPTIONS} options.`
  if (options.some((option) => option.length > MAX_POLL_TEXT)) return `Keep each option to ${MAX_POLL_TEXT} characters.`
  if (!Number.isInteger(poll.expiresAt) || poll.expiresAt <= nowSeconds) return 'Choose when the poll ends, in the future.'
  if (poll.expiresAt > nowSeconds + MAX_POLL_SECONDS) return 'A poll can run for a year at most.'
  return null
}
