// Someone named by what the user typed rather than picked: a phone number or an e-mail address,
// the two ways MB2 finds an account besides its id.
import type { MemberCandidate } from '@shared/groups'
import { cutToCodePoints } from '@shared/cut-text'
import { MAX_NICKNAME } from '@shared/limits'

export type TypedAddress = { phone: string } | { email: string }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Digits with the usual separators, at least five digits, an optional leading +. */
const PHONE = /^\+?[\d\s().-]+$/

/** The address this text is, or null when it is neither a phone number nor an e-mail address. */
export function addressFromText(text: string): TypedAddress | null {
  const typed = text.trim()
  if (EMAIL.test(typed)) return { email: typed }
  if (PHONE.test(typed) && typed.replace(/\D/g, '').length >= 5) return { phone: typed }
  return null
}

/**
 * The person at a typed address, under the name the user gives them. The address itself is never
 * the nickname: everyone in the group would see it. The name is cut to what a nickname may hold.
 */
export function typedCandidate(address: TypedAddress, name: string): MemberCandidate {
  return { nickname: cutToCodePoints(name.trim(), MAX_NICKNAME), ...address }
}
