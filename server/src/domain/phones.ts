/** Phone numbers are stored as `+<cc> <number>` and match when their digits are equal (§2.1). */

export const PHONE_FORMAT = /^\+[0-9]{1,3} [0-9]{4,14}$/

/** The ASCII digits of a phone number ("decimal digits" are ASCII only, §18.3). */
export function phoneDigits(phone: string): string {
  return phone.replace(/[^0-9]/g, '')
}

export function phonesMatch(a: string, b: string): boolean {
  const digits = phoneDigits(a)
  return digits !== '' && digits === phoneDigits(b)
}

/** The last two digits, used as the SMS / call hint of a verification (§3.2). */
export function phoneHint(phone: string): string {
  return phoneDigits(phone).slice(-2)
}
