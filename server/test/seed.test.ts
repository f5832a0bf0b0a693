import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestService } from './support.js'

const dir = mkdtempSync(join(tmpdir(), 'service-seed-'))

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('--seed demo', () => {
  it('seeds accounts, three groups with history and a DM chat, once', async () => {
    const db = join(dir, 'demo.db')
    const service = await startTestService({ seed: 'demo', db })
    try {
      expect(service.demoAccounts.length).toBeGreaterThanOrEqual(4)
      const [ada] = service.demoAccounts
      if (ada === undefined) throw new Error('no demo accounts')
      // Every sign-in from a new device is challenged; the SMS flow works with the seeded phone.
      const token = await service.signIn({ ...ada, id: '', token: '' })
      const groups = await service.call('GET', '/v3/groups', { token })
      expect(groups.body.response).toHaveLength(3)
      let total = 0
      for (const group of groups.body.response) {
        total += group.messages.count as number
        const page = await service.call('GET', `/v3/groups/${group.id}/messages`, { token, query: { limit: '100' } })
        const messages = page.body.response.messages as { created_at: number; user_id: string }[]
        expect(new Set(messages.map((m) => m.user_id)).size).toBeGreaterThan(1)
      }
      expect(total).toBeGreaterThanOrEqual(300)
      const oldest = await service.call('GET', `/v3/groups/${groups.body.response[0].id}/messages`, { token, query: { after_id: '1', limit: '1' } })
      expect(oldest.body.response.messages[0]).toMatchObject({ system: true, sender_type: 'system', event: { type: 'membership.announce.added' } })
      expect(oldest.body.response.messages[0].created_at).toBeLessThan(Math.floor(Date.now() / 1000) - 3 * 86_400)
      const chats = await service.call('GET', '/v3/chats', { token })
      expect(chats.body.response).toHaveLength(1)
      expect(chats.body.response[0].messages_count).toBeGreaterThan(5)
    } finally {
      await service.close()
    }
    const again = await startTestService({ seed: 'demo', db })
    try {
      const token = await again.signIn({ ...(service.demoAccounts[1] ?? { name: '', email: '', phoneNumber: '', password: '' }), id: '', token: '' })
      expect((await again.call('GET', '/v3/groups', { token })).body.response).toHaveLength(3)
    } finally {
      await again.close()
    }
  })
})
