import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { addMember, addMembers, addResults, showGroup } from './groups-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

const dir = mkdtempSync(join(tmpdir(), 'groups-restart-'))

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('groups and members across a restart', () => {
  it('keeps settings, roles, owners, every membership state, requests, mutes and add results', async () => {
    const db = join(dir, 'state.db')
    const first = await startTestService({ db })
    const users: Record<string, TestUser> = {}
    for (const name of ['owner', 'admin', 'exited', 'removed', 'banned', 'asker', 'muted', 'destroyedOwner']) {
      users[name] = await first.signUp({ name })
    }
    const u = (name: string): TestUser => users[name] as TestUser
    const group = await first.createGroup(u('owner'), { name: 'Durable', share: true })
    const gone = await first.createGroup(u('destroyedOwner'), { name: 'Gone' })
    const call = (s: TestService, user: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> =>
      s.call(method, path, { token: u(user).token, ...(body === undefined ? {} : { body }) })

    const members: Record<string, Json> = {}
    for (const name of ['admin', 'exited', 'removed', 'banned']) members[name] = await addMember(first, u('owner'), group.id, u(name))
    await call(first, 'owner', 'POST', `/v3/groups/${group.id}/members/${members['admin'].id}/update`, { role: 'admin' })
    await call(first, 'exited', 'POST', `/v3/groups/${group.id}/members/${members['exited'].id}/remove`)
    await call(first, 'owner', 'POST', `/v3/groups/${group.id}/members/${members['removed'].id}/remove`)
    await call(first, 'banned', 'POST', `/v3/groups/${group.id}/members/${members['banned'].id}/remove`)
    await call(first, 'owner', 'POST', `/v2/groups/${group.id}/memberships/${members['banned'].id}/destroy`)
    const add = await addMembers(first, u('owner'), group.id, [{ user_id: u('muted').id, nickname: 'Quiet', guid: 'G-1' }])
    const resultsId = add.body.response.results_id
    const results = (await addResults(first, u('owner'), group.id, resultsId)).body.response
    const muted = (await call(first, 'muted', 'POST', `/v2/groups/${group.id}/memberships/mute`, { duration: 60 })).body.membership
    await call(first, 'owner', 'POST', `/v3/groups/${group.id}/update`, {
      requires_approval: true,
      show_join_question: true,
      join_question: { type: 'join_reason/questions/text', text: 'Why?' },
      like_icon: { type: 'emoji', pack_id: 2, pack_index: 4 },
      group_type: 'closed',
      message_deletion_mode: ['sender'],
      theme_name: 'dusk',
      office_mode: true,
      visibility: 'searchable'
    })
    const before = await showGroup(first, u('owner'), group.id)
    const token = (before.share_url as string).split('/').at(-1) as string
    const pending = (await call(first, 'asker', 'POST', `/v3/groups/${group.id}/join/${token}`, { answer: { response: 'Please' } })).body.response.membership
    await call(first, 'destroyedOwner', 'POST', `/v3/groups/${gone.id}/destroy`)
    await call(first, 'owner', 'POST', '/v3/groups/change_owners', { requests: [{ group_id: group.id, owner_id: u('admin').id }] })
    const shown = await showGroup(first, u('owner'), group.id)
    const inactive = (await first.call('GET', `/v3/groups/${group.id}/members`, { token: u('admin').token, query: { filter: 'inactive' } })).body.response
    const states = (await call(first, 'exited', 'GET', '/v3/memberships/states')).body.response
    await first.close()

    const second = await startTestService({ db })
    try {
      // The port differs between runs, so share_url's origin does too.
      expect(await showGroup(second, u('owner'), group.id)).toEqual({ ...shown, share_url: shown.share_url.replace(first.origin, second.origin) })
      expect(shown.share_url.startsWith(first.origin)).toBe(true)
      expect(shown).toMatchObject({ creator_user_id: u('admin').id, type: 'closed', requires_approval: true, theme_name: 'dusk' })
      const inactiveAfter = await second.call('GET', `/v3/groups/${group.id}/members`, { token: u('admin').token, query: { filter: 'inactive' } })
      expect(inactiveAfter.body.response).toEqual(inactive)
      expect((await call(second, 'exited', 'GET', '/v3/memberships/states')).body.response).toEqual(states)
      expect((await call(second, 'exited', 'GET', '/v3/groups/former')).body.response.map((g: Json) => g.id)).toEqual([group.id])
      expect((await call(second, 'owner', 'GET', `/v3/groups/${group.id}/pending_memberships`)).body.response).toEqual([pending])
      expect(pending.reason.answer).toEqual({ type: 'join_reason/answers/text', response: 'Please' })
      expect((await addResults(second, u('owner'), group.id, resultsId)).body.response).toEqual(results)
      expect((await call(second, 'muted', 'POST', `/v2/groups/${group.id}/memberships/mute`, { duration: 60 })).body.membership.muted).toBe(true)
      expect(muted.muted).toBe(true)
      expect((await call(second, 'destroyedOwner', 'GET', `/v3/groups/${gone.id}`)).status).toBe(404)
      // The rules still hold: banned and removed stay out, exited may rejoin, the share token works.
      expect((await call(second, 'banned', 'POST', '/v3/groups/join', { group_id: group.id })).status).toBe(403)
      expect((await call(second, 'removed', 'POST', `/v3/groups/${group.id}/join/${token}`)).status).toBe(403)
      expect((await call(second, 'exited', 'POST', '/v3/groups/join', { group_id: group.id })).status).toBe(200)
      expect((await call(second, 'asker', 'POST', `/v3/groups/${group.id}/join/${token}`)).body.response.membership).toEqual(pending)
    } finally {
      await second.close()
    }
  })
})
