// What U2 and P1 accept (docs/protocol.md §3, §4), checked where the user types it and again in
// main, so the service is asked only what it would take, and a refusal names the field to fix.
import type { ProfileChanges, ProfileField } from './account'
import { MAX_ACCOUNT_NAME, MAX_BIO, MIN_PASSWORD_LENGTH } from './limits'

/** The service counts characters as code points, so an emoji is one. */
const length = (text: string): number => [...text].length

/** Why the service would refuse each field of these changes, in the user's words; empty when none. */
export function profileProblems(changes: ProfileChanges): Partial<Record<ProfileField, string>> {
  const problems: Partial<Record<ProfileField, string>> = {}
  if (changes.name !== undefined) {
    const name = changes.name.trim()
    if (name === '') problems.name = 'Write your name.'
    else if (length(name) > MAX_ACCOUNT_NAME) problems.name = `Keep your name to ${MAX_ACCOUNT_NAME} characters.`
  }
  if (changes.email !== undefined && !changes.email.includes('@')) {
    problems.email = 'Write an e-mail address, with an @ in it.'
  }
  if (changes.bio !== undefined && length(changes.bio) > MAX_BIO) problems.bio = `Keep your bio to ${MAX_BIO} characters.`
  return problems
}

/** What the service said no to, once the app's own checks had passed: the words for each field. */
export const PROFILE_REFUSALS: Record<ProfileField, string> = {
  name: 'The service did not accept this name. Try another.',
  email: 'This e-mail address belongs to another account, or the service cannot use it. Try another.',
  bio: 'The service did not accept this bio. Shorten it and try again.',
  avatar: 'The service did not accept this picture. Choose another.'
}

/** Why the service would refuse this new password; null when it is fine. */
export function newPasswordProblem(password: string): string | null {
  return length(password) < MIN_PASSWORD_LENGTH ? `Use at least ${MIN_PASSWORD_LENGTH} characters.` : null
}
