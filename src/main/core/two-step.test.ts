// TwoStep's failure paths that the real service cannot be steered into on demand (a code already
// used, M3 or M4 refused, an outage between steps); tests/integration/two-step.test.ts covers the
// whole flow against the real service.
import { describe, expect, it } from 'vitest'
import type { Account, SignedInApp } from '@shared/account'
import type { Me } from '@shared/session'
import type { ErrorCode } from '@shared/window-api'
import type { IssuedToken } from '@shared/token-issuer'
import { issuedToken, quietLog } from '../../../tests/support/memory-platform'
import type { SecurityService, SessionService } from './ports'
import { failure } from './testing/memory-service'
import { TwoStep } from './two-step'

const ADA: Me = { id: '1', name: 'Ada', avatarUrl: null }
const PIN = '123456'

type Step = 'startTwoStep' | 'sendSmsCode' | 'confirmCode' | 'confirmTwoStepPhone' | 'account' | 'enableTwoStep' | 'disableTwoStep'

/** Ada's account on an in-memory service, each step answering as the real one does unless told to fail once. */
class MemorySecurity implements SecurityService, Pick<SessionService, 'sendSmsCode' | 'confirmCode'> {
  readonly steps: Step[] = []
  readonly #failures = new Map<Step, ErrorCode>()
  enabled = false

  failNext(step: Step, code: ErrorCode): void {
    this.#failures.set(step, code)
  }

  #step(step: Step): void {
    this.steps.push(step)
    const code = this.#failures.get(step)
    if (code === undefined) return
    this.#failures.delete(step)
    throw failure(code)
  }

  async account(): Promise<Account> {
    this.#step('account')
    return { ...ADA, email: null, bio: '', twoStep: { enabled: this.enabled, phoneHint: '42' } }
  }
  async startTwoStep(): Promise<string> {
    this.#step('startTwoStep')
    return 'verification-1'
  }
  async sendSmsCode(): Promise<{ smsHint: string | null }> {
    this.#step('sendSmsCode')
    return { smsHint: '42' }
  }
  async confirmCode(_verificationId: string, code: string): Promise<{ verified: true } | { verified: false; remainingAttempts: number }> {
    this.#step('confirmCode')
    return code === PIN ? { verified: true } : { verified: false, remainingAttempts: 4 }
  }
  async confirmTwoStepPhone(): Promise<void> {
    this.#step('confirmTwoStepPhone')
  }
  async enableTwoStep(): Promise<{ token: IssuedToken; backupCode: string }> {
    this.#step('enableTwoStep')
    this.enabled = true
    return { token: issuedToken('new-token'), backupCode: 'abcdefgh12345678' }
  }
  async disableTwoStep(): Promise<void> {
    this.#step('disableTwoStep')
    this.enabled = false
  }
  async newBackupCode(): Promise<string> {
    return 'zyxwvuts87654321'
  }
  async signedInApps(): Promise<SignedInApp[]> {
    return []
  }
  async signOutApp(): Promise<void> {}
}

function twoStepOver(service: MemorySecurity): { twoStep: TwoStep; tokens: string[] } {
  const tokens: string[] = []
  const twoStep = new TwoStep({
    service,
    me: () => ADA,
    switchToken: async (issue) => {
      tokens.push((await issue()).token)
    },
    log: quietLog
  })
  return { twoStep, tokens }
}

describe('turning two-step verification on, when a step fails', () => {
  it('resumes after the step that failed: an outage before M4 does not ask for the code again', async () => {
    const service = new MemorySecurity()
    const { twoStep, tokens } = twoStepOver(service)
    await twoStep.begin()
    service.failNext('account', 'NETWORK')
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ code: 'NETWORK' })
    expect(tokens).toEqual([])

    // The code was confirmed and the phone recorded: another try goes straight on to M4.
    expect(await twoStep.confirm('anything')).toMatchObject({ status: 'enabled', backupCode: 'abcdefgh12345678', account: { twoStep: { enabled: true } } })
    expect(service.steps.filter((step) => step === 'confirmCode' || step === 'confirmTwoStepPhone')).toEqual(['confirmCode', 'confirmTwoStepPhone'])
    expect(tokens).toEqual(['new-token'])
  })

  it('says a code already used cannot be confirmed, and forgets the setup', async () => {
    const service = new MemorySecurity()
    const { twoStep } = twoStepOver(service)
    await twoStep.begin()
    service.failNext('confirmCode', 'VALIDATION')
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/already used/) })
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/no code waiting/) })
  })

  it('says when M3 refuses the verification, and forgets the setup', async () => {
    const service = new MemorySecurity()
    const { twoStep } = twoStepOver(service)
    await twoStep.begin()
    service.failNext('confirmTwoStepPhone', 'VALIDATION')
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/can no longer be used/) })
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ message: expect.stringMatching(/no code waiting/) })
  })

  it('says when it is on already (turned on elsewhere meanwhile), with no token switched', async () => {
    const service = new MemorySecurity()
    const { twoStep, tokens } = twoStepOver(service)
    await twoStep.begin()
    service.failNext('enableTwoStep', 'VALIDATION')
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ code: 'VALIDATION', message: 'Two-step verification is already on.' })
    expect(tokens).toEqual([])
  })

  it('keeps the setup through an outage in V3, for the same code to be tried again', async () => {
    const service = new MemorySecurity()
    const { twoStep } = twoStepOver(service)
    await twoStep.begin()
    service.failNext('confirmCode', 'NETWORK')
    await expect(twoStep.confirm(PIN)).rejects.toMatchObject({ code: 'NETWORK' })
    expect(await twoStep.confirm(PIN)).toMatchObject({ status: 'enabled' })
  })

  it('fails beginning when the code cannot be sent, and a new beginning starts a new verification', async () => {
    const service = new MemorySecurity()
    const { twoStep } = twoStepOver(service)
    service.failNext('sendSmsCode', 'NETWORK')
    await expect(twoStep.begin()).rejects.toMatchObject({ code: 'NETWORK' })
    expect(await twoStep.begin()).toEqual({ phoneHint: '42' })
    expect(service.steps.filter((step) => step === 'startTwoStep')).toHaveLength(2)
  })
})

describe('turning two-step verification off', () => {
  it('passes on a failure other than its being off already', async () => {
    const service = new MemorySecurity()
    service.enabled = true
    const { twoStep } = twoStepOver(service)
    service.failNext('disableTwoStep', 'NETWORK')
    await expect(twoStep.disable()).rejects.toMatchObject({ code: 'NETWORK' })
    expect(service.enabled).toBe(true)
  })
})
