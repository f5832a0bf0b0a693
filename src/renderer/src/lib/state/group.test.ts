import { describe, expect, it } from 'vitest'
import { FakeApi } from '../../testing/fake-api'
import { groupDetails } from '../../testing/groups'
import { GroupModel } from './group.svelte'

describe('GroupModel', () => {
  it('keeps what a change answered when a slower load, started before it, ends after it', async () => {
    const stale = groupDetails('closed', 'admin')
    const fake = new FakeApi().returns('groups:get', stale).returns('members:joinRequests', []).returns('members:former', []).install()
    const group = new GroupModel('g1')
    await group.load()

    const slowLoad = fake.holds('groups:get')
    const loading = group.load()
    fake.returns('groups:update', { ...stale, name: 'Readers' })
    expect(await group.update({ name: 'Readers' })).toBe(true)
    slowLoad.resolve(stale)
    await loading
    expect(group.details.value?.name).toBe('Readers')
  })

  it('asks for join requests only where the user manages, and for those who left only as an admin', async () => {
    const fake = new FakeApi().returns('groups:get', groupDetails('private', 'user')).returns('members:joinRequests', []).install()
    await new GroupModel('g1').load()
    expect(fake.callsTo('members:joinRequests')).toHaveLength(1)
    expect(fake.callsTo('members:former')).toHaveLength(0)
  })

  it('runs one change at a time, and says so to a second', async () => {
    const details = groupDetails('closed', 'admin')
    const fake = new FakeApi().returns('groups:get', details).returns('members:joinRequests', []).returns('members:former', []).install()
    const group = new GroupModel('g1')
    await group.load()
    const held = fake.holds('groups:update')
    const first = group.update({ name: 'Readers' })
    expect(await group.update({ name: 'Writers' })).toBe(false)
    expect(group.settingsError).toBe('Another change is still on its way. Try again in a moment.')
    held.resolve({ ...details, name: 'Readers' })
    expect(await first).toBe(true)
    expect(fake.callsTo('groups:update')).toEqual([{ groupId: 'g1', changes: { name: 'Readers' } }])
  })
})
