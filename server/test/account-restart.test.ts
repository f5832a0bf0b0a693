import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestService } from './support.js'

/** MFA state, backup codes, blocks, relationships, batches and tokens survive a restart (§1). */

const dir = mkdtempSync(join(tmpdir(), 'service-account-'))

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('restart on the same database file', () => {
  it('keeps MFA state, the backup code, blocks, relationships, batches and tokens', async () => {
    const db = join(dir, 'account.db')
    const first = await startTestService({ db })
    const alice = await first.signUp({ name: 'Alice' })
    const bob = await first.signUp({ name: 'Bob' })
    const carol = await first.signUp({ name: 'Carol' })
    const bobToken = bob.token

    // Alice: channel + MFA on, then a fresh backup code.
    const m2 = await first.call('POST', '/v3/user/mfa', { token: alice.token, body: { channel: { method: 'phone_number' } } })
    const code = m2.body.response.verification.code
    await first.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
    await first.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: await first.lastPin(alice.phoneNumber) } } })
    expect((await first.call('POST', '/v3/user/mfa', { token: alice.token, body: { channel: { method: 'phone_number' }, verification: { code } } })).status).toBe(201)
    const m4 = await first.call('POST', '/v3/user/mfa', { token: alice.token, body: { mfa: { status: 'enable' } } })
    const aliceToken = m4.body.response.access_token.access_token as string
    const backup = (await first.call('POST', '/v3/user/mfa/backup', { token: aliceToken })).body.response.mfa.backup_code as string

    // Blocks and relationships.
    await first.call('POST', '/v3/blocks', { token: aliceToken, query: { user: alice.id, otherUser: carol.id } })
    const bobShare = (await first.call('GET', '/v3/users/me', { token: bobToken })).body.response.share_url.split('/').at(-1)
    await first.call('POST', '/v4/relationships/create', { token: aliceToken, body: { user_id: bob.id, token: bobShare } })
    const imported = await first.call('POST', '/v3/relationships/import_contacts', {
      token: aliceToken,
      attest: true,
      body: [{ name: 'Carol', guid: 'carol-guid', phone_number: carol.phoneNumber.replace(' ', '') }]
    })
    const batchId = imported.body.response.batch_id as string
    const contacts = (await first.call('GET', '/v4/relationships', { token: aliceToken })).body
    const tokens = (await first.call('GET', '/v2/access_tokens', { token: aliceToken })).body
    const me = (await first.call('GET', '/v3/users/me', { token: aliceToken })).body.response
    await first.close()

    const second = await startTestService({ db })
    try {
      // Tokens: the MFA token (no expiry) and Bob's.
      expect((await second.call('GET', '/v2/access_tokens', { token: aliceToken })).body).toEqual(tokens)
      expect((await second.call('GET', '/v3/users/me', { token: bobToken })).status).toBe(200)
      // MFA and its channel.
      // (The port, and so the share URL's origin, differs after a restart on port 0.)
      const path = (url: string) => new URL(url).pathname
      const meAgain = (await second.call('GET', '/v3/users/me', { token: aliceToken })).body.response
      expect({ ...meAgain, share_url: path(meAgain.share_url) }).toEqual({ ...me, share_url: path(me.share_url) })
      expect(me.mfa.enabled).toBe(true)
      expect((await second.call('POST', '/v3/user/mfa', { token: aliceToken, body: { mfa: { status: 'enable' } } })).status).toBe(400)
      // Blocks.
      const blocks = await second.call('GET', '/v3/blocks', { token: aliceToken, query: { user: alice.id } })
      expect(blocks.body.response.blocks.map((b: { blocked_user_id: string }) => b.blocked_user_id)).toEqual([carol.id])
      // Relationships and the batch.
      expect((await second.call('GET', '/v4/relationships', { token: aliceToken })).body).toEqual(contacts)
      const results = await second.call('GET', `/v4/relationships/batch/${batchId}`, { token: aliceToken })
      expect(results.body.map((r: { guid: string; user_id: string }) => [r.guid, r.user_id])).toEqual([['carol-guid', carol.id]])
      // The relationship clock continues: a new contact comes after the old ones.
      const bobSecond = await second.call('DELETE', `/v4/relationships/${bob.id}`, { token: aliceToken })
      expect(bobSecond.status).toBe(202)
      await second.call('POST', '/v4/relationships/create', { token: aliceToken, body: { user_id: bob.id, token: bobShare } })
      const after = (await second.call('GET', '/v4/relationships', { token: aliceToken })).body
      expect(after.map((r: { user_id: string }) => r.user_id)).toEqual([carol.id, bob.id])

      // MFA still challenges, and the backup code from before the restart solves it once.
      const login = {
        app_id: 'a',
        grant_type: 'password',
        username: alice.email,
        password: alice.password,
        device_id: 'restart-device'
      }
      const challenge = await second.call('POST', '/v2/access_tokens', { body: login })
      expect(challenge.status).toBe(202)
      const vcode = challenge.body.verification.code
      expect((await second.call('POST', `/v3/verifications/${vcode}/confirm`, { body: { verification: { pin: backup } } })).status).toBe(200)
      const granted = await second.call('POST', '/v2/access_tokens', { body: { ...login, verification: { code: vcode } } })
      expect(granted.status).toBe(200)
      expect(granted.body.expires_at).toBeNull()
      const next = (await second.call('POST', '/v2/access_tokens', { body: login })).body.verification.code
      expect((await second.call('POST', `/v3/verifications/${next}/confirm`, { body: { verification: { pin: backup } } })).status).toBe(400)
    } finally {
      await second.close()
    }
  })
})
