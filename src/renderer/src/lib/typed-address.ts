// Someone named by what the user typed rather than picked: a phone number or an e-mail address,
// the two ways MB2 finds an account besides its id.
import type { MemberCandidate } from '../../../shared/groups'
import { MAX_NICKNAME } from '../../../shared/limits'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Digits with the usual separators, at least five digits, an optional leading +. */
const PHONE = /^\+?[\d\s().-]+$/

/** The candidate this text names, or null when it is neither a phone number nor an e-mail address. */
export function candidateFromText(text: string): MemberCandidate | null {
  const typed = text.trim()
  // Until they choose a nickname in the group, they go by what the user typed.
  const nickname = typed.slice(0, MAX_NICKNAME)
  if (EMAIL.test(typed)) return { nickname, email: typed }
  if (PHONE.test(typed) && typed.replace(/\D/g, '').length >= 5) return { nickname, phone: typed }
  return null
}
