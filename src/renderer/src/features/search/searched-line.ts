// The line under the results that says what was searched: how many messages, back to when, and
// whether older history is still on its way or not downloaded for some conversations, so nobody
// takes "no results" for "never said".
import type { SearchScope } from '@shared/search'
import { calendarDay } from '$lib/time-format'

const count = new Intl.NumberFormat()

function conversations(n: number): string {
  return n === 1 ? '1 conversation' : `${count.format(n)} conversations`
}

export function searchedLine(scope: SearchScope, within: string | null): string {
  if (scope.messages === 0) return 'No messages are kept on this device yet.'
  const what = within === null ? `${count.format(scope.messages)} ${scope.messages === 1 ? 'message' : 'messages'} kept on this device` : `the messages of ${within} kept on this device`
  const since = scope.oldestAt === null ? '' : `, back to ${calendarDay(scope.oldestAt)}`
  const history =
    scope.history === 'complete'
      ? 'Every conversation is kept from its first message.'
      : scope.history === 'off'
        ? `Keep full history is off, so the older messages of ${conversations(scope.conversationsPartial)} are not searched.`
        : `Older history is still downloading for ${conversations(scope.conversationsPartial)}.`
  return `Searched ${what}${since}. ${history}`
}
