// A conversation's mute as it stands now, turning to null the moment it ends. Main does not send
// a new list when a conversation's mute runs out, and "ends exactly when it says" is the promise.
import type { Mute } from '@shared/attention'
import { isMuted } from './mute-text'

/** setTimeout's longest delay: a later end is reached in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/** Call during a component's setup; `current` is the mute while it is in force, else null. */
export function watchMute(mute: () => Mute | null): { readonly current: Mute | null } {
  let now = $state(Date.now())

  $effect(() => {
    const until = mute()?.until ?? null
    // Read so that each wake-up schedules the next step of a long wait.
    if (until === null || !isMuted({ until }, now)) return
    const timer = setTimeout(() => (now = Date.now()), Math.min(until - Date.now(), LONGEST_TIMER_MS))
    return () => clearTimeout(timer)
  })

  return {
    get current() {
      const current = mute()
      return isMuted(current, Math.max(now, Date.now())) ? current : null
    }
  }
}
