// Session.switchToken: the token M4 issues replaces the one in use, kept before anything uses it.
import { describe, expect, it } from 'vitest'
import type { Me } from '../../shared/domain'
import { MemoryPreferences, MemoryVault, quietLog } from '../../../tests/support/memory-platform'
import type { SessionService } from './ports'
import { Session } from './session'

const ADA: Me = { id: '1', name: 'Ada', avatarUrl: null }

/** A vault that records what the session's token was each time it was written to. */
class WatchedVault extends MemoryVault {
  readonly tokenInUseWhenSaved: (string | null)[] = []
  failSaves = false
  session: Session | null = null

  override async save(token: string): Promise<void> {
    this.tokenInUseWhenSaved.push(this.session?.token ?? null)
    if (this.failSaves) throw new Error('disk full')
    await super.save(token)
  }
}

/** A session restored as Ada's with `old-token`, as a kept session is at start-up. */
async function signedInSession(): Promise<{ session: Session; vault: WatchedVault; ended: string[] }> {
  const vault = new WatchedVault()
  vault.token = 'old-token'
  const ended: string[] = []
  // Only `me` is reached: the rest of sign-in is not what these tests are about.
  const service = { me: async () => ADA, destroyToken: async () => undefined } as unknown as SessionService
  const session = new Session({
    service,
    vault,
    preferences: new MemoryPreferences(),
    log: quietLog,
    changed: () => undefined,
    signedIn: () => undefined,
    signedOut: () => ended.push('signedOut')
  })
  vault.session = session
  await session.restore()
  expect(session.token).toBe('old-token')
  return { session, vault, ended }
}

describe('switching the token', () => {
  it('keeps the new token in the vault before the session uses it', async () => {
    const { session, vault } = await signedInSession()
    await session.switchToken(async () => 'new-token')
    expect(vault.tokenInUseWhenSaved).toEqual(['old-token'])
    expect(vault.token).toBe('new-token')
    expect(session.token).toBe('new-token')
  })

  it('does not end the session for a refusal of the old token while the new one is on its way', async () => {
    const { session, ended } = await signedInSession()
    await session.switchToken(async () => {
      // M4 has revoked the old token: a request still carrying it is refused meanwhile.
      await session.expire()
      return 'new-token'
    })
    expect(ended).toEqual([])
    expect(session.me).toEqual(ADA)
    expect(session.token).toBe('new-token')

    await session.expire()
    expect(ended).toEqual(['signedOut'])
  })

  it('keeps the old token when no new one was issued, and the failure reaches the caller', async () => {
    const { session, vault } = await signedInSession()
    await expect(session.switchToken(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(session.token).toBe('old-token')
    expect(vault.token).toBe('old-token')
  })

  it('uses the new token for this run even when the vault cannot keep it', async () => {
    const { session, vault } = await signedInSession()
    vault.failSaves = true
    await session.switchToken(async () => 'new-token')
    expect(session.token).toBe('new-token')
  })

  it('keeps nothing when the user signed out while the new token was on its way', async () => {
    const { session, vault } = await signedInSession()
    await session.switchToken(async () => {
      await session.signOut()
      return 'new-token'
    })
    expect(session.token).toBeNull()
    expect(vault.token).toBeNull()
  })

  it('refuses when nobody is signed in', async () => {
    const { session } = await signedInSession()
    await session.signOut()
    await expect(session.switchToken(async () => 'new-token')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })
})
