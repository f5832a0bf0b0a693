// Session.switchToken: the token M4 issues replaces the one in use, kept before anything uses it.
import { describe, expect, it } from 'vitest'
import type { Me } from '@shared/session'
import type { IssuedToken } from '@shared/token-issuer'
import { issuedToken, MemoryPreferences, MemoryVault, quietLog, TEST_ISSUER } from '../../../tests/support/memory-platform'
import type { SessionService } from './ports'
import { Session } from './session'

const ADA: Me = { id: '1', name: 'Ada', avatarUrl: null }

/** A vault that records what the session's token was each time it was written to. */
class WatchedVault extends MemoryVault {
  readonly tokenInUseWhenSaved: (string | null)[] = []
  failSaves = false
  session: Session | null = null

  override async save(token: IssuedToken): Promise<void> {
    this.tokenInUseWhenSaved.push(this.session?.token?.token ?? null)
    if (this.failSaves) throw new Error('disk full')
    await super.save(token)
  }
}

/** A session restored as Ada's with `old-token`, as a kept session is at start-up. */
async function signedInSession(): Promise<{ session: Session; vault: WatchedVault; ended: string[]; destroyed: string[] }> {
  const vault = new WatchedVault()
  vault.kept = issuedToken('old-token')
  const ended: string[] = []
  // Which tokens T3 revoked.
  const destroyed: string[] = []
  // Only `me` and T3 are reached: the rest of sign-in is not what these tests are about.
  const service = {
    me: async () => ADA,
    revokeToken: async (issued: IssuedToken) => {
      destroyed.push(issued.token)
    }
  } as unknown as SessionService
  const session = new Session({
    service,
    vault,
    preferences: new MemoryPreferences(),
    log: quietLog,
    deployment: () => TEST_ISSUER,
    changed: () => undefined,
    signedIn: () => undefined,
    signedOut: () => void ended.push('signedOut')
  })
  vault.session = session
  await session.restore()
  expect(session.token?.token).toBe('old-token')
  return { session, vault, ended, destroyed }
}

describe('switching the token', () => {
  it('keeps the new token in the vault before the session uses it', async () => {
    const { session, vault } = await signedInSession()
    await session.switchToken(async () => issuedToken('new-token'))
    expect(vault.tokenInUseWhenSaved).toEqual(['old-token'])
    expect(vault.token).toBe('new-token')
    expect(session.token?.token).toBe('new-token')
  })

  it('does not end the session for a refusal of the old token while the new one is on its way', async () => {
    const { session, ended } = await signedInSession()
    await session.switchToken(async () => {
      // M4 has revoked the old token: a request still carrying it is refused meanwhile.
      await session.expire()
      return issuedToken('new-token')
    })
    expect(ended).toEqual([])
    expect(session.me).toEqual(ADA)
    expect(session.token?.token).toBe('new-token')

    await session.expire()
    expect(ended).toEqual(['signedOut'])
  })

  it('keeps the old token when no new one was issued, and the failure reaches the caller', async () => {
    const { session, vault } = await signedInSession()
    await expect(session.switchToken(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(session.token?.token).toBe('old-token')
    expect(vault.token).toBe('old-token')
  })

  it('uses the new token for this run even when the vault cannot keep it, and lets the revoked one go', async () => {
    const { session, vault } = await signedInSession()
    vault.failSaves = true
    await session.switchToken(async () => issuedToken('new-token'))
    expect(session.token?.token).toBe('new-token')
    // The next start finds no token to try, rather than the old one M4 revoked.
    expect(vault.token).toBeNull()
  })

  it('keeps nothing when the user signed out while the new token was on its way, and revokes the new token', async () => {
    const { session, vault, destroyed } = await signedInSession()
    await session.switchToken(async () => {
      await session.signOut()
      return issuedToken('new-token')
    })
    expect(session.token).toBeNull()
    expect(vault.token).toBeNull()
    expect(destroyed).toEqual(['old-token', 'new-token'])
  })

  it('refuses when nobody is signed in', async () => {
    const { session } = await signedInSession()
    await session.signOut()
    await expect(session.switchToken(async () => issuedToken('new-token'))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })
})
