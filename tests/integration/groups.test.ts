// Main's core against the real local service for groups and their members (G2, G4–G10, MB1–MB9):
// every operation the app uses, the refusals in the user's words, and the conversation list
// following each change, live where the service announces it.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { localServiceConfig } from '../../src/main/api/service-config'
import { WORDS } from '../../src/main/core/groups'
import type { ConnectionOwner } from '../../src/main/core/ports'
import { connectToService } from '../../src/main/service/service-connection'
import type { Conversation } from '@shared/conversations'
import type { ErrorCode } from '@shared/window-api'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { quietLog } from '../support/memory-platform'
import { tokenFrom } from '../support/memory-platform'

const { cleanups, service: serviceFor } = testScope()

async function signedIn(service: TestService, user: TestUser): Promise<AppHarness> {
  const app = launchApp(service.origin, cleanups)
  await signInThroughSms(app, service, user)
  return app
}

/** Waits until the app's list satisfies `holds` (pushes and refreshes arrive in their own time). */
async function listUntil(app: AppHarness, holds: (list: Conversation[]) => boolean, what: string): Promise<Conversation[]> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const list = await app.call('conversations:list', {})
    if (holds(list)) return list
    if (Date.now() > deadline) throw new Error(`the list never came to hold: ${what}; it is ${JSON.stringify(list.map((c) => c.name))}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const entry = (list: Conversation[], id: string): Conversation | undefined => list.find((conversation) => conversation.id === id)

/** The refusal a call ends in, as the renderer sees it. */
async function refusal(call: Promise<unknown>): Promise<{ code: ErrorCode; message: string }> {
  try {
    await call
  } catch (error) {
    const { code, message } = error as { code: ErrorCode; message: string }
    return { code, message }
  }
  throw new Error('the call succeeded where it should have been refused')
}

interface Scene {
  service: TestService
  grace: TestUser
  alan: TestUser
  graceApp: AppHarness
  alanApp: AppHarness
  groupId: string
}

/** Grace creates a group through the app and adds Alan, who sees it arrive. */
async function graceAndAlanInAGroup(service: TestService): Promise<Scene> {
  const grace = await service.createUser({ name: 'Grace' })
  const alan = await service.createUser({ name: 'Alan' })
  const graceApp = await signedIn(service, grace)
  const alanApp = await signedIn(service, alan)
  const created = await graceApp.call('groups:create', { group: { name: 'Lunch club', description: 'Noon', imageUrl: null, share: false } })
  const added = await graceApp.call('members:add', { groupId: created.id, candidates: [{ nickname: 'Alan', userId: alan.id }] })
  expect(added.notAdded).toEqual([])
  await listUntil(alanApp, (list) => entry(list, created.id) !== undefined, 'Alan has the group')
  return { service, grace, alan, graceApp, alanApp, groupId: created.id }
}

describe('creating a group (G5) and reading it (G4)', () => {
  it('creates the group with attestation, lists it at once as the owner’s, and shows its settings and members', async () => {
    const service = await serviceFor()
    const grace = await service.createUser({ name: 'Grace' })
    const app = await signedIn(service, grace)

    const created = await app.call('groups:create', { group: { name: '  Lunch club ', description: ' Noon ', imageUrl: null, share: true } })
    expect(created).toMatchObject({ kind: 'group', name: 'Lunch club', myRole: 'owner', groupType: 'private', myNickname: 'Grace' })
    expect(entry(await app.call('conversations:list', {}), created.id)).toMatchObject({ name: 'Lunch club', myRole: 'owner' })

    const details = await app.call('groups:get', { groupId: created.id })
    expect(details).toMatchObject({
      id: created.id,
      name: 'Lunch club',
      description: 'Noon',
      imageUrl: null,
      type: 'private',
      requiresApproval: false,
      joinQuestion: null,
      deletionMode: ['admin', 'sender'],
      ownerId: grace.id,
      myRole: 'owner'
    })
    expect(details.shareUrl).toMatch(new RegExp(`/join_group/${created.id}/[A-Za-z0-9]{8}$`))
    expect(details.members).toEqual([
      { membershipId: details.myMembershipId, userId: grace.id, nickname: 'Grace', name: 'Grace', avatarUrl: null, role: 'owner', muted: false }
    ])
  })

  it('refuses a group without a name, or with a picture the image service never stored, and creates nothing', async () => {
    const service = await serviceFor()
    const grace = await service.createUser({ name: 'Grace' })
    const app = await signedIn(service, grace)

    expect(await refusal(app.call('groups:create', { group: { name: '  ', description: '', imageUrl: null, share: false } }))).toEqual({
      code: 'VALIDATION',
      message: 'Give the group a name.'
    })
    const elsewhere = await refusal(
      app.call('groups:create', { group: { name: 'Lunch', description: '', imageUrl: 'https://pictures.example.test/a.png', share: false } })
    )
    expect(elsewhere).toEqual({ code: 'VALIDATION', message: 'The service did not accept this group. Check its name, description and picture.' })
    expect(await app.call('conversations:list', {})).toEqual([])
  })
})

describe('group settings (G6)', () => {
  it('changes every setting a manager may, and the list shows the new name, type and deletion mode at once', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId } = await graceAndAlanInAGroup(service)

    const updated = await graceApp.call('groups:update', {
      groupId,
      changes: {
        name: 'Supper club',
        description: 'Evenings',
        type: 'closed',
        requiresApproval: true,
        joinQuestion: 'What do you cook?',
        share: true,
        deletionMode: ['admin']
      }
    })
    expect(updated).toMatchObject({
      name: 'Supper club',
      description: 'Evenings',
      type: 'closed',
      requiresApproval: true,
      joinQuestion: 'What do you cook?',
      deletionMode: ['admin']
    })
    expect(updated.shareUrl).toMatch(/\/join_group\//)
    expect(entry(await graceApp.call('conversations:list', {}), groupId)).toMatchObject({
      name: 'Supper club',
      groupType: 'closed',
      deletionMode: ['admin'],
      joinRequestCount: 0
    })

    // Sharing off and no question: both are taken away.
    const quieter = await graceApp.call('groups:update', { groupId, changes: { share: false, joinQuestion: null } })
    expect(quieter).toMatchObject({ shareUrl: null, joinQuestion: null, requiresApproval: true })

    // Alan reads the settings (G4) but, an ordinary member of a closed group, may not change them.
    expect(await alanApp.call('groups:get', { groupId })).toMatchObject({ name: 'Supper club', type: 'closed', myRole: 'user' })
    // Nobody is told of settings (§14.5): Alan's list catches up as he reads the group.
    expect(entry(await alanApp.call('conversations:list', {}), groupId)).toMatchObject({ name: 'Supper club', groupType: 'closed' })
    expect(entry(await alanApp.call('conversations:list', {}), groupId)).not.toHaveProperty('joinRequestCount')
    await alanApp.call('members:setNickname', { groupId, nickname: 'Al' })
    expect(await refusal(alanApp.call('groups:update', { groupId, changes: { name: 'Alan’s club' } }))).toEqual({
      code: 'FORBIDDEN',
      message: WORDS.notAManager
    })
    expect(await graceApp.call('groups:get', { groupId })).toMatchObject({ name: 'Supper club' })
  })

  it('a refused update changes nothing, on the service or in the list', async () => {
    const service = await serviceFor()
    const { graceApp, groupId } = await graceAndAlanInAGroup(service)

    const refused = await refusal(
      graceApp.call('groups:update', { groupId, changes: { name: 'Renamed', imageUrl: 'https://pictures.example.test/a.png' } })
    )
    expect(refused).toEqual({ code: 'VALIDATION', message: 'The service did not accept these settings, so nothing was changed.' })
    expect(await refusal(graceApp.call('groups:update', { groupId, changes: { name: 'x'.repeat(141) } }))).toEqual({
      code: 'VALIDATION',
      message: 'A group name is at most 140 characters.'
    })
    expect(await graceApp.call('groups:get', { groupId })).toMatchObject({ name: 'Lunch club', imageUrl: null })
    expect(entry(await graceApp.call('conversations:list', {}), groupId)).toMatchObject({ name: 'Lunch club' })
  })

  it('a member whose group became an announcement group is told why their message was refused, and their list catches up', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId } = await graceAndAlanInAGroup(service)
    await graceApp.call('groups:update', { groupId, changes: { type: 'announcement' } })

    // The service tells nobody of the change (§14.5): Alan's send is what finds it out.
    expect(entry(await alanApp.call('conversations:list', {}), groupId)?.groupType).toBe('private')
    const clientId = randomUUID()
    await alanApp.call('messages:send', { conversationId: groupId, text: 'Noon?', clientId })
    const failed = await alanApp.events.waitFor('outbox:changed', (change) => change.conversationId === groupId && change.pending[0]?.state === 'failed')
    expect(failed.pending).toMatchObject([{ clientId, text: 'Noon?', state: 'failed', error: 'Not sent: only admins can write in this group now.' }])
    await listUntil(alanApp, (list) => entry(list, groupId)?.groupType === 'announcement', 'Alan’s list knows the group is for announcements')
  })

  it('in a private group any member manages: Alan renames it', async () => {
    const service = await serviceFor()
    const { alanApp, graceApp, groupId } = await graceAndAlanInAGroup(service)
    expect(await alanApp.call('groups:update', { groupId, changes: { name: 'Alan’s lunch' } })).toMatchObject({ name: 'Alan’s lunch' })
    expect(await graceApp.call('groups:get', { groupId })).toMatchObject({ name: 'Alan’s lunch' })
  })
})

describe('members (MB2–MB4, MB8, MB9) and ownership (G10)', () => {
  it('adds by account, phone and e-mail once the service has finished (MB3 answering 503 meanwhile), and names who could not be added', async () => {
    const service = await serviceFor({ env: { SERVICE_ADD_RESULTS_DELAY_MS: '1200' } })
    const grace = await service.createUser({ name: 'Grace' })
    const alan = await service.createUser({ name: 'Alan' })
    const bea = await service.createUser({ name: 'Bea' })
    const cy = await service.createUser({ name: 'Cy' })
    const graceApp = await signedIn(service, grace)
    const beaApp = await signedIn(service, bea)
    const created = await graceApp.call('groups:create', { group: { name: 'Lunch club', description: '', imageUrl: null, share: false } })

    const result = await graceApp.call('members:add', {
      groupId: created.id,
      candidates: [
        { nickname: 'Alan', userId: alan.id },
        { nickname: 'Bea', phone: bea.phoneNumber },
        { nickname: 'Cy', email: cy.email.toUpperCase() },
        { nickname: 'Ghost', email: 'nobody@example.test' },
        { nickname: 'Alan again', userId: alan.id }
      ]
    })
    expect(result.added.map((member) => [member.nickname, member.userId, member.role])).toEqual([
      ['Alan', alan.id, 'user'],
      ['Bea', bea.id, 'user'],
      ['Cy', cy.id, 'user']
    ])
    expect(result.notAdded).toEqual(['Ghost', 'Alan again'])
    // Bea was signed in: the group reached her list live (membership.create).
    await listUntil(beaApp, (list) => entry(list, created.id) !== undefined, 'Bea has the group')

    expect(await refusal(graceApp.call('members:add', { groupId: created.id, candidates: [] }))).toEqual({
      code: 'VALIDATION',
      message: 'Choose at least one person to add.'
    })
  })

  it('refuses adding, removing and roles to those the group does not allow them to', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, grace } = await graceAndAlanInAGroup(service)
    await graceApp.call('groups:update', { groupId, changes: { type: 'closed' } })
    // Alan's list learns the new type when it is next fetched; the service refuses him either way.
    const bea = await service.createUser({ name: 'Bea' })
    expect(await refusal(alanApp.call('members:add', { groupId, candidates: [{ nickname: 'Bea', userId: bea.id }] }))).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the group’s managers can add people to it.'
    })
    const details = await graceApp.call('groups:get', { groupId })
    const graceMembership = details.myMembershipId
    expect(await refusal(alanApp.call('members:remove', { groupId, membershipId: graceMembership }))).toMatchObject({ code: 'FORBIDDEN' })
    const alanMembership = details.members.find((member) => member.userId !== grace.id)?.membershipId ?? ''
    expect(await refusal(alanApp.call('members:setRole', { groupId, membershipId: alanMembership, role: 'admin' }))).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the group’s owner can make or remove admins.'
    })
    expect(await refusal(graceApp.call('members:setRole', { groupId, membershipId: graceMembership, role: 'user' }))).toEqual({
      code: 'VALIDATION',
      message: 'The owner’s role cannot be changed.'
    })
    expect(await refusal(graceApp.call('groups:leave', { groupId }))).toEqual({ code: 'FORBIDDEN', message: WORDS.ownerLeaving })
    expect(await refusal(alanApp.call('groups:destroy', { groupId }))).toEqual({ code: 'FORBIDDEN', message: 'Only the group’s owner can delete it.' })
    expect((await graceApp.call('groups:get', { groupId })).members).toHaveLength(2)
  })

  it('makes an admin and a member again, changes a nickname, and hands the group over', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, alan, grace } = await graceAndAlanInAGroup(service)
    const alanMembership = (await alanApp.call('groups:get', { groupId })).myMembershipId

    const promoted = await graceApp.call('members:setRole', { groupId, membershipId: alanMembership, role: 'admin' })
    expect(promoted.members.find((member) => member.userId === alan.id)?.role).toBe('admin')

    const renamed = await alanApp.call('members:setNickname', { groupId, nickname: ' Al ' })
    expect(renamed).toMatchObject({ myRole: 'admin' })
    expect(renamed.members.find((member) => member.userId === alan.id)?.nickname).toBe('Al')
    expect(entry(await alanApp.call('conversations:list', {}), groupId)).toMatchObject({ myNickname: 'Al', myRole: 'admin' })
    expect(await refusal(alanApp.call('members:setNickname', { groupId, nickname: 'n'.repeat(51) }))).toEqual({
      code: 'VALIDATION',
      message: 'A nickname is at most 50 characters.'
    })

    const demoted = await graceApp.call('members:setRole', { groupId, membershipId: alanMembership, role: 'user' })
    expect(demoted.members.find((member) => member.userId === alan.id)?.role).toBe('user')

    expect(await refusal(graceApp.call('groups:transferOwnership', { groupId, userId: grace.id }))).toEqual({
      code: 'CONFLICT',
      message: 'They already own this group.'
    })
    const handedOver = await graceApp.call('groups:transferOwnership', { groupId, userId: alan.id })
    expect(handedOver).toMatchObject({ ownerId: alan.id, myRole: 'admin' })
    expect(entry(await graceApp.call('conversations:list', {}), groupId)).toMatchObject({ myRole: 'admin' })
    expect(await alanApp.call('groups:get', { groupId })).toMatchObject({ myRole: 'owner' })
  })

  it('a role refused with 401 (MB1 after a demotion the list has not seen) is a refusal, and the session goes on', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, alan } = await graceAndAlanInAGroup(service)
    const alanMembership = (await alanApp.call('groups:get', { groupId })).myMembershipId
    await graceApp.call('members:setRole', { groupId, membershipId: alanMembership, role: 'admin' })
    await alanApp.call('members:setNickname', { groupId, nickname: 'Al' })
    expect(await alanApp.call('members:former', { groupId })).toEqual([])
    await graceApp.call('members:setRole', { groupId, membershipId: alanMembership, role: 'user' })

    expect(await refusal(alanApp.call('members:former', { groupId }))).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the group’s admins and owner can see who left.'
    })
    expect(await alanApp.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: alan.id } })
  })

  it('MB1 and MB6 refused with 401 leave the token alone at the gateway too, and G10 reads its item status as a refusal', async () => {
    const service = await serviceFor()
    const grace = await service.signUp({ name: 'Grace' })
    const alan = await service.signUp({ name: 'Alan' })
    const group = await service.createGroup(grace, { name: 'Lunch club' })
    await service.call('POST', `/v3/groups/${String(group.id)}/members/add`, {
      token: grace.token,
      attest: true,
      body: { members: [{ user_id: alan.id, nickname: 'Alan' }] }
    })
    const settings = await service.call('POST', `/v3/groups/${String(group.id)}/update`, {
      token: grace.token,
      body: { group_type: 'closed', requires_approval: true, share: true }
    })
    const shareToken = String(settings.body.response.share_url).split('/').at(-1) ?? ''
    const bea = await service.signUp({ name: 'Bea' })
    const asked = await service.call('POST', `/v3/groups/${String(group.id)}/join/${shareToken}`, { token: bea.token })
    expect(asked.status).toBe(202)
    const requestId = String(asked.body.response.membership.id)
    const connection = connectToService({ config: localServiceConfig(service.origin), log: quietLog })
    let refusedTokens = 0
    const owner: ConnectionOwner = {
      token: () => tokenFrom(localServiceConfig(service.origin), alan.token),
      me: () => ({ id: alan.id, name: 'Alan', avatarUrl: null }),
      message: () => undefined,
      reaction: () => undefined,
      messageChanged: () => undefined,
      typing: () => undefined,
      conversationsChanged: () => undefined,
      status: () => undefined,
      live: () => undefined,
      tokenRefused: () => (refusedTokens += 1),
      tokenElsewhere: () => undefined
    }
    connection.attach(owner)
    await expect(connection.gateway.formerMembers(String(group.id))).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(connection.gateway.decideJoinRequest(String(group.id), requestId, true)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    // G10 answers 200 with a refusal inside: read as one.
    await expect(connection.gateway.transferOwnership(String(group.id), bea.id)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(refusedTokens).toBe(0)
  })
})

describe('leaving, removing, banning and rejoining (MB4, MB7, G2, G9)', () => {
  it('a member removed sees the group drop from the list live, and cannot come back through G9', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, alan } = await graceAndAlanInAGroup(service)
    const alanMembership = (await graceApp.call('groups:get', { groupId })).members.find((member) => member.userId === alan.id)?.membershipId ?? ''

    const after = await graceApp.call('members:remove', { groupId, membershipId: alanMembership })
    expect(after.members.map((member) => member.userId)).not.toContain(alan.id)
    await listUntil(alanApp, (list) => entry(list, groupId) === undefined, 'the group left Alan’s list')

    expect(await graceApp.call('members:former', { groupId })).toEqual([
      { membershipId: alanMembership, userId: alan.id, nickname: 'Alan', name: 'Alan', avatarUrl: null, state: 'removed' }
    ])
    expect(await refusal(alanApp.call('groups:rejoin', { groupId }))).toEqual({
      code: 'FORBIDDEN',
      message: 'You cannot rejoin this group: you were removed from it.'
    })
    expect(await alanApp.call('groups:former', {})).toEqual([])
  })

  it('banning a current member removes them (MB4), which keeps them out of G8 and G9; the owner and oneself cannot be banned', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, alan, grace } = await graceAndAlanInAGroup(service)
    const before = await graceApp.call('groups:get', { groupId })
    const membershipOf = (userId: string): string => before.members.find((member) => member.userId === userId)?.membershipId ?? ''

    expect(await refusal(graceApp.call('members:ban', { groupId, membershipId: before.myMembershipId }))).toEqual({
      code: 'VALIDATION',
      message: 'To remove yourself, leave the group.'
    })
    // In a private group Alan manages too, but not the owner.
    expect(await refusal(alanApp.call('members:ban', { groupId, membershipId: membershipOf(grace.id) }))).toEqual({
      code: 'FORBIDDEN',
      message: 'The group’s owner cannot be banned.'
    })

    const former = await graceApp.call('members:ban', { groupId, membershipId: membershipOf(alan.id) })
    expect(former).toEqual([expect.objectContaining({ userId: alan.id, state: 'removed' })])
    expect((await graceApp.call('groups:get', { groupId })).members.map((member) => member.userId)).not.toContain(alan.id)
    await listUntil(alanApp, (list) => entry(list, groupId) === undefined, 'the group left Alan’s list')
    expect(await refusal(alanApp.call('groups:rejoin', { groupId }))).toMatchObject({ code: 'FORBIDDEN' })

    // Removed already: MB7 has nothing more to do, and says so.
    expect(await refusal(graceApp.call('members:ban', { groupId, membershipId: membershipOf(alan.id) }))).toEqual({
      code: 'VALIDATION',
      message: WORDS.banRemovedMember
    })
  })

  it('a member leaves, finds it among former groups, rejoins, leaves again, and once banned cannot return', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, alan } = await graceAndAlanInAGroup(service)

    expect(await alanApp.call('groups:leave', { groupId })).toBeNull()
    expect(entry(await alanApp.call('conversations:list', {}), groupId)).toBeUndefined()
    expect(await alanApp.call('groups:former', {})).toEqual([{ id: groupId, name: 'Lunch club', avatarUrl: null }])

    const back = await alanApp.call('groups:rejoin', { groupId })
    expect(back).toMatchObject({ id: groupId, name: 'Lunch club', myRole: 'user' })
    expect(entry(await alanApp.call('conversations:list', {}), groupId)).toBeDefined()

    await alanApp.call('groups:leave', { groupId })
    const [former] = await graceApp.call('members:former', { groupId })
    expect(former).toMatchObject({ userId: alan.id, state: 'left' })
    const banned = await graceApp.call('members:ban', { groupId, membershipId: former?.membershipId ?? '' })
    expect(banned).toEqual([expect.objectContaining({ userId: alan.id, state: 'banned' })])
    expect(await refusal(alanApp.call('groups:rejoin', { groupId }))).toMatchObject({ code: 'FORBIDDEN' })
    expect(await alanApp.call('groups:former', {})).toEqual([])
  })

  it('the owner deletes the group: it leaves their list; the service tells nobody else, whose list drops it at the next call on it', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId } = await graceAndAlanInAGroup(service)
    const bea = await service.createUser({ name: 'Bea' })
    const beaApp = await signedIn(service, bea)
    const cy = await service.createUser({ name: 'Cy' })
    const cyApp = await signedIn(service, cy)
    const dee = await service.createUser({ name: 'Dee' })
    const deeApp = await signedIn(service, dee)
    const candidates = [bea, cy, dee].map((person) => ({ nickname: person.name, userId: person.id }))
    await graceApp.call('members:add', { groupId, candidates })
    await listUntil(beaApp, (list) => entry(list, groupId) !== undefined, 'Bea has the group')
    await listUntil(cyApp, (list) => entry(list, groupId) !== undefined, 'Cy has the group')
    await listUntil(deeApp, (list) => entry(list, groupId) !== undefined, 'Dee has the group')
    await cyApp.call('conversations:open', { conversationId: groupId })

    expect(await graceApp.call('groups:destroy', { groupId })).toBeNull()
    expect(entry(await graceApp.call('conversations:list', {}), groupId)).toBeUndefined()

    expect(entry(await alanApp.call('conversations:list', {}), groupId)).toBeDefined()
    expect(await refusal(alanApp.call('groups:get', { groupId }))).toEqual({
      code: 'NOT_FOUND',
      message: 'This group no longer exists, or you are no longer in it.'
    })
    await listUntil(alanApp, (list) => entry(list, groupId) === undefined, 'the deleted group left Alan’s list')

    // Opening it (its history answers 404) does the same.
    expect(entry(await beaApp.call('conversations:list', {}), groupId)).toBeDefined()
    expect(await refusal(beaApp.call('conversations:open', { conversationId: groupId }))).toMatchObject({ code: 'NOT_FOUND' })
    await listUntil(beaApp, (list) => entry(list, groupId) === undefined, 'the deleted group left Bea’s list')

    // So does a message written to it while it was open: the send answers 404.
    await cyApp.call('messages:send', { conversationId: groupId, text: 'Is this still on?', clientId: 'cy-after-the-delete' })
    await listUntil(cyApp, (list) => entry(list, groupId) === undefined, 'the deleted group left Cy’s list')

    // A page that reloads asks for the list afresh, so it no longer shows the group either.
    expect(entry(await deeApp.call('conversations:list', {}), groupId)).toBeDefined()
    await deeApp.call('app:ready', {})
    await listUntil(deeApp, (list) => entry(list, groupId) === undefined, 'the deleted group left Dee’s list after a reload')
  })
})

describe('joining through a share link (G8) and requests to join (MB5, MB6)', () => {
  it('joins a group that asks no approval, and says clearly what is wrong with a bad link', async () => {
    const service = await serviceFor()
    const grace = await service.createUser({ name: 'Grace' })
    const bea = await service.createUser({ name: 'Bea' })
    const graceApp = await signedIn(service, grace)
    const beaApp = await signedIn(service, bea)
    const created = await graceApp.call('groups:create', { group: { name: 'Open house', description: '', imageUrl: null, share: true } })
    const link = (await graceApp.call('groups:get', { groupId: created.id })).shareUrl ?? ''

    expect(await refusal(beaApp.call('groups:rejoin', { groupId: created.id }))).toEqual({
      code: 'NOT_FOUND',
      message: 'You can rejoin only a group you left, and this one no longer exists or never had you.'
    })
    expect(await refusal(beaApp.call('groups:join', { link: 'see you at lunch', answer: null }))).toEqual({
      code: 'VALIDATION',
      message: WORDS.notAShareLink
    })
    const wrongToken = link.replace(/[A-Za-z0-9]{8}$/, 'WRONG123')
    expect(await refusal(beaApp.call('groups:join', { link: wrongToken, answer: null }))).toEqual({ code: 'NOT_FOUND', message: WORDS.unknownLink })

    const joined = await beaApp.call('groups:join', { link: ` ${link} `, answer: null })
    expect(joined).toMatchObject({ status: 'joined', conversation: { id: created.id, name: 'Open house', myRole: 'user' } })
    expect(entry(await beaApp.call('conversations:list', {}), created.id)).toBeDefined()
    expect(await beaApp.call('groups:pendingJoins', {})).toEqual([])
  })

  it('refuses a share link at another address before anything is sent, and keeps no request made through one', async () => {
    const service = await serviceFor()
    const grace = await service.createUser({ name: 'Grace' })
    const bea = await service.createUser({ name: 'Bea' })
    const graceApp = await signedIn(service, grace)
    const beaApp = await signedIn(service, bea)
    const open = await graceApp.call('groups:create', { group: { name: 'Open house', description: '', imageUrl: null, share: true } })
    const openLink = (await graceApp.call('groups:get', { groupId: open.id })).shareUrl ?? ''
    const asking = await graceApp.call('groups:create', { group: { name: 'Book club', description: '', imageUrl: null, share: true } })
    const askingLink = (await graceApp.call('groups:update', { groupId: asking.id, changes: { requiresApproval: true, joinQuestion: 'Favourite book?' } })).shareUrl ?? ''
    const words = (host: string): string =>
      `This link is not one of your service’s: it leads to ${host}, and your service’s group links begin with ${service.origin}/join_group/. Nothing was sent.`

    for (const stranger of ['https://evil.example', 'http://127.0.0.1:1', service.origin.replace('127.0.0.1', 'localhost')]) {
      const foreign = openLink.replace(service.origin, stranger)
      const host = new URL(stranger).host
      expect(await refusal(beaApp.call('groups:checkLink', { link: foreign }))).toEqual({ code: 'VALIDATION', message: words(host) })
      expect(await refusal(beaApp.call('groups:join', { link: foreign, answer: null }))).toEqual({ code: 'VALIDATION', message: words(host) })
      expect(await refusal(beaApp.call('groups:join', { link: askingLink.replace(service.origin, stranger), answer: 'Dune' }))).toEqual({
        code: 'VALIDATION',
        message: words(host)
      })
    }
    // Nothing reached the service: Bea is in neither group, and no request waits, here or there.
    expect((await graceApp.call('groups:get', { groupId: open.id })).members.map((member) => member.userId)).not.toContain(bea.id)
    expect(await graceApp.call('members:joinRequests', { groupId: asking.id })).toEqual([])
    expect(await beaApp.call('groups:pendingJoins', {})).toEqual([])

    // The service's own links, pasted however, are read as the service writes them.
    expect(await beaApp.call('groups:checkLink', { link: ` ${askingLink}/ ` })).toEqual({ link: askingLink })
    const asked = await beaApp.call('groups:join', { link: ` ${askingLink}/ `, answer: 'Dune' })
    expect(asked).toMatchObject({ status: 'pending', request: { groupId: asking.id, link: askingLink, answer: 'Dune' } })
  })

  it('learns the share origin of a deployment whose links live on a host of their own, none of its addresses', async () => {
    const service = await serviceFor({ env: { SERVICE_PUBLIC_ORIGIN: 'https://share.chat.example.test' } })
    const grace = await service.createUser({ name: 'Grace' })
    const bea = await service.createUser({ name: 'Bea' })
    const graceApp = launchApp(service.boundOrigin, cleanups)
    await signInThroughSms(graceApp, service, grace)
    const beaApp = launchApp(service.boundOrigin, cleanups)
    await signInThroughSms(beaApp, service, bea)
    const created = await graceApp.call('groups:create', { group: { name: 'Open house', description: '', imageUrl: null, share: true } })
    const link = (await graceApp.call('groups:get', { groupId: created.id })).shareUrl ?? ''
    expect(link.startsWith('https://share.chat.example.test/join_group/')).toBe(true)

    // The app's own addresses are not where the service's links live.
    expect(await refusal(beaApp.call('groups:join', { link: link.replace('https://share.chat.example.test', service.boundOrigin), answer: null }))).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('begin with https://share.chat.example.test/join_group/') as unknown
    })
    expect(await beaApp.call('groups:join', { link, answer: null })).toMatchObject({ status: 'joined', conversation: { id: created.id } })
  })

  it('a request waits for approval on this device, counts on the manager’s list, and once approved the group arrives live', async () => {
    const service = await serviceFor()
    const grace = await service.createUser({ name: 'Grace' })
    const bea = await service.createUser({ name: 'Bea' })
    const cy = await service.createUser({ name: 'Cy' })
    const graceApp = await signedIn(service, grace)
    const beaApp = await signedIn(service, bea)
    const cyApp = await signedIn(service, cy)
    const created = await graceApp.call('groups:create', { group: { name: 'Book club', description: '', imageUrl: null, share: true } })
    const settings = await graceApp.call('groups:update', {
      groupId: created.id,
      changes: { requiresApproval: true, joinQuestion: 'Favourite book?' }
    })
    const link = settings.shareUrl ?? ''

    const asked = await beaApp.call('groups:join', { link, answer: ' Middlemarch ' })
    expect(asked).toMatchObject({
      status: 'pending',
      request: { groupId: created.id, link, question: 'Favourite book?', answer: 'Middlemarch' }
    })
    expect(await beaApp.call('groups:pendingJoins', {})).toEqual([asked.status === 'pending' ? asked.request : null])
    expect(entry(await beaApp.call('conversations:list', {}), created.id)).toBeUndefined()
    await cyApp.call('groups:join', { link, answer: null })

    // Grace on another device: the list carries the count of requests waiting (MB5).
    const graceElsewhere = await signedIn(service, grace)
    await listUntil(graceElsewhere, (list) => entry(list, created.id)?.joinRequestCount === 2, 'two requests wait')
    const requests = await graceApp.call('members:joinRequests', { groupId: created.id })
    expect(requests.map((request) => [request.userId, request.name, request.question, request.answer])).toEqual([
      [bea.id, 'Bea', 'Favourite book?', 'Middlemarch'],
      [cy.id, 'Cy', 'Favourite book?', null]
    ])

    const [beaRequest, cyRequest] = requests
    const left = await graceApp.call('members:decide', { groupId: created.id, membershipId: beaRequest?.membershipId ?? '', approve: true })
    expect(left.map((request) => request.userId)).toEqual([cy.id])
    // Answered already (by another manager, say): what still waits is shown, with no error.
    expect(await graceApp.call('members:decide', { groupId: created.id, membershipId: beaRequest?.membershipId ?? '', approve: false })).toEqual(left)
    expect(entry(await graceApp.call('conversations:list', {}), created.id)).toMatchObject({ joinRequestCount: 1 })
    await listUntil(beaApp, (list) => entry(list, created.id) !== undefined, 'the approved group reached Bea live')
    expect(await beaApp.call('groups:pendingJoins', {})).toEqual([])

    expect(await graceApp.call('members:decide', { groupId: created.id, membershipId: cyRequest?.membershipId ?? '', approve: false })).toEqual([])
    expect(entry(await graceApp.call('conversations:list', {}), created.id)).toMatchObject({ joinRequestCount: 0 })
    // A denial is never announced: Cy lets the request go by hand.
    expect(await cyApp.call('groups:pendingJoins', {})).toHaveLength(1)
    expect(await cyApp.call('groups:forgetPendingJoin', { groupId: created.id })).toEqual([])
    expect(await cyApp.call('groups:pendingJoins', {})).toEqual([])
  })

  it('someone removed cannot join through the link', async () => {
    const service = await serviceFor()
    const { graceApp, alanApp, groupId, alan } = await graceAndAlanInAGroup(service)
    const link = (await graceApp.call('groups:update', { groupId, changes: { share: true } })).shareUrl ?? ''
    const alanMembership = (await graceApp.call('groups:get', { groupId })).members.find((member) => member.userId === alan.id)?.membershipId ?? ''
    await graceApp.call('members:remove', { groupId, membershipId: alanMembership })
    expect(await refusal(alanApp.call('groups:join', { link, answer: null }))).toEqual({ code: 'FORBIDDEN', message: WORDS.removedFromGroup })
  })
})
