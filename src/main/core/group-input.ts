// What the user types for a group, checked and tidied before the service sees it, with what is
// wrong said in their words (the service answers a bare 400). Lengths count code points, as the
// service does (docs/protocol.md §2.1).
import type { GroupChanges, MemberCandidate, NewGroup } from '@shared/groups'
import { MAX_GROUP_DESCRIPTION, MAX_GROUP_NAME, MAX_JOIN_ANSWER, MAX_JOIN_QUESTION, MAX_NICKNAME } from '@shared/limits'
import { cutToCodePoints } from '@shared/cut-text'
import { AppError } from './app-error'
import { readPastedLink } from './pasted-link'

/**
 * A refusal core makes itself, before the service is asked: already in the user's words, so
 * nothing rewords it as one of the service's refusals.
 */
export class OwnRefusal extends AppError {}

/** A share link's parts (§7 G6 `share`): `<origin>/join_group/<group_id>/<token>`. */
export interface ShareLink {
  groupId: string
  token: string
  /** Where it leads: the service's share origin, or a stranger's (share-origins.ts tells). */
  origin: string
  host: string
}

const GROUP_ID = /^[0-9]{1,32}$/
const TOKEN = /^[A-Za-z0-9]{1,64}$/

/** The group and token a pasted share link names; null for any text that is not such a link. */
export function parseShareLink(text: string): ShareLink | null {
  const link = readPastedLink(text)
  if (link === null || link.segments.length !== 3) return null
  const [kind, groupId = '', token = ''] = link.segments
  if (kind !== 'join_group' || !GROUP_ID.test(groupId) || !TOKEN.test(token)) return null
  return { groupId, token, origin: link.origin, host: link.host }
}

/** The link as the service itself writes it, the way the app shows a request made through it. */
export function shareLinkText({ origin, groupId, token }: ShareLink): string {
  return `${origin}/join_group/${groupId}/${token}`
}

const length = (text: string): number => [...text].length

function invalid(message: string): never {
  throw new OwnRefusal('VALIDATION', message)
}

export function checkedGroupName(name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') invalid('Give the group a name.')
  if (length(trimmed) > MAX_GROUP_NAME) invalid(`A group name is at most ${MAX_GROUP_NAME} characters.`)
  return trimmed
}

export function checkedDescription(description: string): string {
  const trimmed = description.trim()
  if (length(trimmed) > MAX_GROUP_DESCRIPTION) invalid(`A description is at most ${MAX_GROUP_DESCRIPTION} characters.`)
  return trimmed
}

export function checkedNickname(nickname: string): string {
  const trimmed = nickname.trim()
  if (trimmed === '') invalid('A nickname cannot be empty.')
  if (length(trimmed) > MAX_NICKNAME) invalid(`A nickname is at most ${MAX_NICKNAME} characters.`)
  return trimmed
}

export function checkedJoinQuestion(question: string): string {
  const trimmed = question.trim()
  if (trimmed === '') invalid('Write the question to ask, or ask none.')
  if (length(trimmed) > MAX_JOIN_QUESTION) invalid(`A join question is at most ${MAX_JOIN_QUESTION} characters.`)
  return trimmed
}

/** An answer to a group's join question; an empty one is no answer. */
export function checkedJoinAnswer(answer: string | null): string | null {
  const trimmed = answer?.trim() ?? ''
  if (length(trimmed) > MAX_JOIN_ANSWER) invalid(`An answer is at most ${MAX_JOIN_ANSWER} characters.`)
  return trimmed === '' ? null : trimmed
}

export function checkedNewGroup(group: NewGroup): NewGroup {
  return { ...group, name: checkedGroupName(group.name), description: checkedDescription(group.description) }
}

export function checkedChanges(changes: GroupChanges): GroupChanges {
  const checked: GroupChanges = { ...changes }
  if (changes.name !== undefined) checked.name = checkedGroupName(changes.name)
  if (changes.description !== undefined) checked.description = checkedDescription(changes.description)
  if (changes.joinQuestion !== undefined && changes.joinQuestion !== null) checked.joinQuestion = checkedJoinQuestion(changes.joinQuestion)
  return checked
}

/**
 * People to add: at least one, each under a nickname and by a non-empty account, phone or e-mail.
 * A nickname longer than a group allows is cut rather than refused: it is usually the person's
 * account name, which may be longer, and one long name must not stop the whole batch.
 */
export function checkedCandidates(candidates: readonly MemberCandidate[]): MemberCandidate[] {
  if (candidates.length === 0) invalid('Choose at least one person to add.')
  return candidates.map((candidate): MemberCandidate => {
    const nickname = checkedNickname(cutToCodePoints(candidate.nickname.trim(), MAX_NICKNAME))
    if ('userId' in candidate) return { nickname, userId: candidate.userId }
    if ('phone' in candidate) {
      const phone = candidate.phone.trim()
      if (phone === '') invalid(`Give a phone number for ${nickname}.`)
      return { nickname, phone }
    }
    const email = candidate.email.trim()
    if (email === '') invalid(`Give an e-mail address for ${nickname}.`)
    return { nickname, email }
  })
}
