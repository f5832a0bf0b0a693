// What a verification code can be (docs/protocol.md §3.2, §3.3): the PIN the service texts is six
// digits, a backup code 16 lowercase letters and digits. Every code V3 reads that is neither is
// wrong for certain, yet would spend one of the verification's five attempts: the screens refuse
// it before sending, and main, which trusts no renderer, refuses it again at the IPC schema.

/** The PIN of a text message (V2): six digits, leading zeros allowed. */
export const SMS_CODE = /^[0-9]{6}$/
/** A backup code (M1, M4). */
export const BACKUP_CODE = /^[a-z0-9]{16}$/

export type CodeKind = 'sms' | 'backup'

export type TypedCode = { code: string } | { problem: string }

export const CODE_WORDS = {
  notSentYet: 'No code has been sent yet: press Send code, then enter the code from the text message.',
  emptySms: 'Enter the code from the text message.',
  notSmsCode: 'The code from the text message is 6 digits: check what you typed.',
  emptyBackup: 'Enter one of your backup codes.',
  notBackupCode: 'A backup code is 16 letters and digits: check what you typed.'
} as const

/**
 * The code as the service reads it, from what the person typed: spaces and dashes (as a code is
 * often written or pasted) are dropped, and a backup code is read in lower case, the only case it
 * comes in. A code that cannot be right comes back as the problem to show instead.
 */
export function readTypedCode(typed: string, kind: CodeKind): TypedCode {
  const compact = typed.replace(/[\s-]+/g, '')
  if (kind === 'backup') {
    const code = compact.toLowerCase()
    if (code === '') return { problem: CODE_WORDS.emptyBackup }
    return BACKUP_CODE.test(code) ? { code } : { problem: CODE_WORDS.notBackupCode }
  }
  if (compact === '') return { problem: CODE_WORDS.emptySms }
  return SMS_CODE.test(compact) ? { code: compact } : { problem: CODE_WORDS.notSmsCode }
}

/** Whether V3 could accept this code at all: a texted PIN or a backup code. */
export function couldBeVerificationCode(code: string): boolean {
  return SMS_CODE.test(code) || BACKUP_CODE.test(code)
}
