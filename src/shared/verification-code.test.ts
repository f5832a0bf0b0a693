import { describe, expect, it } from 'vitest'
import { CODE_WORDS, couldBeVerificationCode, readTypedCode } from './verification-code'

describe('verification codes as typed', () => {
  it('reads a texted code of six digits, written with spaces or dashes or not', () => {
    expect(readTypedCode(' 123 456 ', 'sms')).toEqual({ code: '123456' })
    expect(readTypedCode('012-345', 'sms')).toEqual({ code: '012345' })
  })

  it('refuses what cannot be a texted code, before it spends an attempt', () => {
    for (const typed of ['12345a', '12345', '1234567', '１２３４５６', '١٢٣٤٥٦', 'abcd1234efgh5678']) {
      expect(readTypedCode(typed, 'sms')).toEqual({ problem: CODE_WORDS.notSmsCode })
    }
    expect(readTypedCode('  ', 'sms')).toEqual({ problem: CODE_WORDS.emptySms })
  })

  it('reads a backup code in lower case, and refuses any other shape', () => {
    expect(readTypedCode('ABCD 1234 EFGH 5678', 'backup')).toEqual({ code: 'abcd1234efgh5678' })
    expect(readTypedCode('abcd1234efgh567', 'backup')).toEqual({ problem: CODE_WORDS.notBackupCode })
    expect(readTypedCode('abcd1234efgh567!', 'backup')).toEqual({ problem: CODE_WORDS.notBackupCode })
    expect(readTypedCode('', 'backup')).toEqual({ problem: CODE_WORDS.emptyBackup })
  })

  it('lets through to the service only a texted code or a backup code', () => {
    expect(couldBeVerificationCode('123456')).toBe(true)
    expect(couldBeVerificationCode('abcd1234efgh5678')).toBe(true)
    expect(couldBeVerificationCode('12345a')).toBe(false)
    expect(couldBeVerificationCode('ABCD1234EFGH5678')).toBe(false)
  })
})
