// SignedInApps' failure paths beside the real service's (tests/integration/two-step.test.ts): an
// outage while asking whether this app survived its own sign-out.
import { beforeEach, describe, expect, it } from 'vitest'
import type { SignedInApp } from '@shared/account'
import type { Me } from '@shared/session'
import type { ErrorCode } from '@shared/window-api'
import { SIGNED_OUT_HERE_NOTICE, SignedInApps } from './signed-in-apps'
import { failure } from './testing/memory-service'

const ADA: Me = { id: '1', name: 'Ada', avatarUrl: null }

/** Two live tokens; U1 answers as told. */
class MemoryTokens {
  apps: SignedInApp[] = [
    { id: '1', appId: 'parley', createdAt: 1 },
    { id: '2', appId: 'parley', createdAt: 2 }
  ]
  meFails: ErrorCode | null = null

  async signedInApps(): Promise<SignedInApp[]> {
    return this.apps
  }
  async signOutApp(id: string): Promise<void> {
    if (!this.apps.some((app) => app.id === id)) throw failure('NOT_FOUND')
    this.apps = this.apps.filter((app) => app.id !== id)
  }
  async me(): Promise<Me> {
    if (this.meFails !== null) throw failure(this.meFails)
    return ADA
  }
}

/** The notices the session was told a refusal would mean, one per call that could meet one. */
let notices: string[] = []
async function said<T>(notice: string, run: () => Promise<T>): Promise<T> {
  notices.push(notice)
  return run()
}

describe('signing an app out', () => {
  beforeEach(() => {
    notices = []
  })

  it('answers the apps left when this app still works', async () => {
    const service = new MemoryTokens()
    const apps = new SignedInApps({ service, me: () => ADA, refusalMeans: (notice, run) => said(notice, run) })
    expect(await apps.signOut('2')).toEqual([{ id: '1', appId: 'parley', createdAt: 1 }])
  })

  it('passes on an outage while checking this app, the sign-out itself done', async () => {
    const service = new MemoryTokens()
    service.meFails = 'NETWORK'
    const apps = new SignedInApps({ service, me: () => ADA, refusalMeans: (notice, run) => said(notice, run) })
    await expect(apps.signOut('2')).rejects.toMatchObject({ code: 'NETWORK' })
    expect(service.apps.map((app) => app.id)).toEqual(['1'])
  })

  it('says this app is signed out when its own token is refused afterwards', async () => {
    const service = new MemoryTokens()
    service.meFails = 'UNAUTHENTICATED'
    const apps = new SignedInApps({ service, me: () => ADA, refusalMeans: (notice, run) => said(notice, run) })
    await expect(apps.signOut('1')).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'You signed this app out. Sign in again to go on.' })
    // The sign-in screen that follows says the same, not the general notice.
    expect(notices).toEqual([SIGNED_OUT_HERE_NOTICE])
    expect(SIGNED_OUT_HERE_NOTICE).toBe('You signed this app out from Signed-in apps.')
  })
})
