/**
 * The conversation header's actions, by their names: the same words name a button in the header
 * and, where the header is short of room, an item of Conversation options.
 */
export type HeaderAction = 'Pictures' | 'Pinned messages' | 'Most liked' | 'Create poll' | 'Polls' | 'Group settings' | 'Members'

/**
 * The order the header keeps them in as room runs out, the most used first: what comes last goes
 * to the menu first.
 */
export const KEPT_LONGEST: readonly HeaderAction[] = ['Members', 'Polls', 'Pictures', 'Pinned messages', 'Most liked', 'Create poll', 'Group settings']

/**
 * Which of the `present` actions the header draws as buttons in a strip `room` pixels wide, with
 * `gap` pixels between buttons: as many as fit, in the order of `KEPT_LONGEST`, so that one action
 * never stays while an action kept longer has gone.
 */
export function actionsThatFit(present: readonly HeaderAction[], widthOf: (action: HeaderAction) => number, gap: number, room: number): HeaderAction[] {
  const drawn: HeaderAction[] = []
  let used = 0
  for (const action of KEPT_LONGEST) {
    if (!present.includes(action)) continue
    const next = used + (drawn.length > 0 ? gap : 0) + widthOf(action)
    if (next > room) break
    drawn.push(action)
    used = next
  }
  return present.filter((action) => drawn.includes(action))
}
