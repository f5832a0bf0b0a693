import { randomUUID } from 'node:crypto'
import type { TestService, TestUser } from '../support.js'
import { routeKey, type DeclaredRoute } from './routes.js'

/**
 * Real things for the fuzz tests to aim at: a user with a token, a shared group with messages, a
 * DM chat, a pending verification, a spare and a revoked token, an uploaded image. Routes that
 * destroy state (logout, password change, group destroy, `/dev/reset`) may spoil it, so the test
 * checks it before each route and builds a new one when needed.
 */
export interface Fixture {
  owner: TestUser
  peer: TestUser
  groupId: string
  shareToken: string | null
  groupMessageIds: string[]
  chatId: string
  dmMessageId: string
  membershipIds: string[]
  /** A login verification of `peer`, not yet used. */
  mfaCode: string
  /** A second live token of `owner`, for T2. */
  spareTokenId: string | null
  /** A token of `peer` that was logged out (T3). */
  revokedToken: string
  imageId: string | null
  /** I1's URL of that image, which bodies may use where an image-service URL is required. */
  imageUrl: string | null
  /** MB2's results id, PL1's poll id and R3's batch id, where those operations exist. */
  resultsId: string | null
  pollId: string | null
  batchId: string | null
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

function expectOk(what: string, result: { status: number; text: string }, ...statuses: number[]): void {
  if (!statuses.includes(result.status)) throw new Error(`fixture: ${what} answered ${result.status} ${result.text.slice(0, 300)}`)
}

export async function buildFixture(service: TestService, routes: readonly DeclaredRoute[]): Promise<Fixture> {
  const has = (method: string, url: string): boolean => routes.some((route) => routeKey(route) === `${method} ${url}`)
  const owner = await service.signUp({ name: 'Fuzz Owner' })
  const peer = await service.signUp({ name: 'Fuzz Peer' })

  const group = await service.createGroup(owner, { name: 'Fuzz group', description: 'for junk', share: true })
  const groupId = String(group.id)
  const shareToken = typeof group.share_url === 'string' ? (group.share_url.split('/').at(-1) ?? null) : null

  // The peer joins the group by whatever way exists yet.
  let resultsId: string | null = null
  if (has('POST', '/v3/groups/:group_id/members/add')) {
    const add = await service.call('POST', `/v3/groups/${groupId}/members/add`, {
      token: owner.token,
      attest: true,
      body: { members: [{ user_id: peer.id, nickname: 'Peer' }] }
    })
    expectOk('MB2', add, 202)
    resultsId = String(add.body.response.results_id)
  } else if (has('POST', '/v3/groups/:group_id/join/:share_token') && shareToken !== null) {
    expectOk('G8', await service.call('POST', `/v3/groups/${groupId}/join/${shareToken}`, { token: peer.token }), 200, 202)
  }

  const groupMessageIds: string[] = []
  for (const text of ['first', 'second', 'third']) {
    groupMessageIds.push(String((await service.sendGroupMessage(owner, groupId, text)).id))
  }
  const dm = await service.sendDirectMessage(owner, peer.id, 'hello')
  const [lo, hi] = [Number(owner.id), Number(peer.id)].sort((a, b) => a - b)
  const chatId = `${lo}+${hi}`

  const shown = await service.call('GET', `/v3/groups/${groupId}`, { token: owner.token })
  expectOk('G4', shown, 200)
  const membershipIds = ((shown.body.response.members ?? []) as { id: string }[]).map((member) => String(member.id))

  const challenge = await service.call('POST', '/v2/access_tokens', {
    body: { app_id: 'fuzz', grant_type: 'password', username: peer.email, password: peer.password, device_id: randomUUID() }
  })
  expectOk('L1 challenge', challenge, 202)
  const mfaCode = String(challenge.body.verification.code)

  await service.signIn(owner)
  const tokens = await service.call('GET', '/v2/access_tokens', { token: owner.token })
  expectOk('T1', tokens, 200)
  const ids = ((tokens.body.access_tokens ?? []) as { id: number }[]).map((token) => token.id)
  const spareTokenId = ids.length > 1 ? String(Math.max(...ids)) : null

  const revokedToken = await service.signIn(peer)
  expectOk('T3', await service.call('POST', '/v2/access_tokens/current/destroy', { token: revokedToken }), 200)

  let imageId: string | null = null
  let imageUrl: string | null = null
  const upload = await service.call('POST', '/image/pictures', { token: owner.token, body: PNG, headers: { 'content-type': 'image/png' } })
  if (upload.status === 200) {
    imageUrl = String(upload.body.payload.url)
    imageId = imageUrl.split('/').at(-1) ?? null
  }

  let pollId: string | null = null
  if (has('POST', '/v3/poll/:group_id')) {
    const poll = await service.call('POST', `/v3/poll/${groupId}`, {
      token: owner.token,
      body: {
        subject: 'Fuzz?',
        options: [{ title: 'Yes' }, { title: 'No' }],
        expiration: Math.floor(Date.now() / 1000) + 3600,
        type: 'multi',
        visibility: 'public'
      }
    })
    expectOk('PL1', poll, 201)
    pollId = String(poll.body.response.poll.data.id)
  }

  let batchId: string | null = null
  if (has('POST', '/v3/relationships/import_contacts')) {
    const batch = await service.call('POST', '/v3/relationships/import_contacts', {
      token: owner.token,
      attest: true,
      body: [{ name: 'Peer', guid: 'g1', phone_number: peer.phoneNumber.replace(' ', '') }]
    })
    expectOk('R3', batch, 202)
    batchId = String(batch.body.response.batch_id)
  }

  return {
    owner,
    peer,
    groupId,
    shareToken,
    groupMessageIds,
    chatId,
    dmMessageId: String(dm.id),
    membershipIds,
    mfaCode,
    spareTokenId,
    revokedToken,
    imageId,
    imageUrl,
    resultsId,
    pollId,
    batchId
  }
}

/** Whether the fixture's token and group still work. */
export async function fixtureUsable(service: TestService, fixture: Fixture): Promise<boolean> {
  const me = await service.call('GET', '/v3/users/me', { token: fixture.owner.token })
  if (me.status !== 200) return false
  const group = await service.call('GET', `/v3/groups/${fixture.groupId}`, { token: fixture.owner.token })
  return group.status === 200
}

/** Real values for a path parameter, by its name; junk is added by the generator. */
export function realValues(fixture: Fixture, param: string): string[] {
  const chat = [fixture.chatId.replace('+', '%2B'), fixture.chatId]
  const messages = [...fixture.groupMessageIds, fixture.dmMessageId]
  const byName: Record<string, string[]> = {
    group_id: [fixture.groupId],
    gid: [fixture.groupId],
    conversation_id: [fixture.groupId, ...chat],
    chat_id: chat,
    message_id: messages,
    membership_id: fixture.membershipIds,
    user_id: [fixture.peer.id, fixture.owner.id],
    other_user_id: [fixture.peer.id],
    mfa_id: [fixture.mfaCode],
    token_id: fixture.spareTokenId === null ? [] : [fixture.spareTokenId],
    image_id: fixture.imageId === null ? [] : [fixture.imageId],
    share_token: fixture.shareToken === null ? [] : [fixture.shareToken],
    option_id: ['1', '2'],
    results_id: fixture.resultsId === null ? [] : [fixture.resultsId],
    poll_id: fixture.pollId === null ? [] : [fixture.pollId],
    batch_id: fixture.batchId === null ? [] : [fixture.batchId]
  }
  const known = byName[param]
  if (known !== undefined && known.length > 0) return known
  // A parameter added later (poll_id, results_id, batch_id, …): any real id may be the right kind.
  return [fixture.groupId, ...messages, fixture.peer.id, ...fixture.membershipIds]
}

/** Query values worth trying besides junk: real ids and the enums the contract uses. */
export function realQueryValues(fixture: Fixture): string[] {
  return [
    fixture.peer.id,
    fixture.owner.id,
    fixture.groupId,
    ...fixture.groupMessageIds,
    fixture.dmMessageId,
    'true',
    'false',
    'memberships',
    'active',
    'inactive',
    'day',
    'week',
    'month',
    '1',
    '100',
    '101'
  ]
}

/**
 * Valid (or nearly valid) bodies per operation, from the contract (§3–§13). The generator mutates
 * them, so the junk gets past the first field check and reaches deeper rules. A route missing here
 * still gets every other kind of junk; a row for a route that does not exist is simply unused.
 */
export function seedBodies(fixture: Fixture): Record<string, unknown[]> {
  const guid = (): string => randomUUID()
  const image = fixture.imageUrl ?? 'http://127.0.0.1/image/i/00000000000000000000000000000000'
  const attachments = [
    { type: 'image', url: image },
    { type: 'location', lat: '52.5', lng: '13.4', name: 'Here' },
    { type: 'emoji', placeholder: '☃', charmap: [[1, 42]] }
  ]
  return {
    'POST /v2/access_tokens': [
      { app_id: 'fuzz', grant_type: 'password', username: fixture.peer.email, password: 'wrong', device_id: 'd', verification: { code: fixture.mfaCode } }
    ],
    'POST /v3/verifications/:mfa_id/initiate': [{ verification: { method: 'sms' } }],
    'POST /v3/verifications/:mfa_id/confirm': [{ verification: { pin: '000000' } }],
    'POST /v3/user/mfa': [
      { channel: { method: 'phone_number' } },
      { channel: { method: 'phone_number' }, verification: { code: fixture.mfaCode } },
      { mfa: { status: 'disable' } }
    ],
    'POST /v3/users/password': [{ password: 'a new long password', password_current: 'wrong' }],
    'POST /v3/users/update': [{ name: 'Renamed', email: 'fuzz@example.test', avatar_url: null, bio: 'bio' }],
    'POST /v4/relationships/create': [{ user_id: fixture.peer.id, token: 'AAAAAAAA' }],
    'POST /v3/relationships/import_contacts': [[{ name: 'Peer', guid: 'g', phone_number: '+15555550100' }]],
    'POST /v3/groups': [{ name: 'Fuzzed', description: 'd', share: true, image_url: null }],
    'POST /v3/groups/:group_id/update': [
      {
        name: 'Renamed',
        description: 'd',
        office_mode: true,
        theme_name: 'music',
        share: true,
        requires_approval: false,
        show_join_question: true,
        join_question: { type: 'join_reason/questions/text', text: 'Why?' },
        like_icon: { type: 'emoji', pack_id: 1, pack_index: 0 },
        visibility: 'hidden',
        group_type: 'private',
        message_deletion_mode: ['admin', 'sender']
      }
    ],
    'POST /v3/groups/:group_id/join/:share_token': [{ answer: { response: 'please' } }],
    'POST /v3/groups/join': [{ group_id: fixture.groupId }],
    'POST /v3/groups/change_owners': [{ requests: [{ group_id: fixture.groupId, owner_id: fixture.peer.id }] }],
    'POST /v2/groups/:group_id/memberships/mute': [{ duration: 60 }],
    'POST /v3/groups/:group_id/memberships/mute_all': [{ duration: null }],
    'POST /v3/groups/:group_id/members/add': [{ members: [{ nickname: 'N', user_id: fixture.peer.id, guid: 'g' }] }],
    'POST /v3/groups/:group_id/members/:membership_id/approval': [{ approval: true }],
    'POST /v3/groups/:group_id/memberships/update': [{ membership: { nickname: 'Nick' } }],
    'POST /v3/groups/:group_id/members/:membership_id/update': [{ role: 'admin' }],
    'POST /v3/groups/:group_id/messages': [{ message: { source_guid: guid(), text: 'hi', attachments } }],
    'PUT /v4/groups/:group_id/messages/:message_id': [{ text: 'edited', attachments }],
    'POST /v3/direct_messages': [{ direct_message: { source_guid: guid(), recipient_id: fixture.peer.id, text: 'hi', attachments } }],
    'PUT /v4/direct_messages/:chat_id/messages/:message_id': [{ text: 'edited', attachments: [] }],
    'POST /v3/messages/:conversation_id/:message_id/like': [
      { like_icon: { type: 'unicode', code: '❤️' } },
      { like_icon: { type: 'emoji', pack_id: 1, pack_index: 0 } }
    ],
    'POST /v3/poll/:group_id': [
      {
        subject: 'Lunch?',
        options: [{ title: 'Yes' }, { title: 'No' }],
        expiration: Math.floor(Date.now() / 1000) + 3600,
        type: 'single',
        visibility: 'public'
      }
    ],
    'POST /v3/poll/:group_id/:poll_id': [{ votes: ['1'] }],
    'POST /dev/users': [{ name: 'Dev', email: `dev-${guid()}@example.test`, phone_number: '+1 5550001234', password: 'pw' }],
    'POST /dev/sms': [{ from: fixture.peer.phoneNumber, to: '+1 5555550199', text: 'abc' }],
    'POST /dev/clock': [{ advance_seconds: 1 }]
  }
}

/** Valid query strings per operation, which the generator mutates like the bodies. */
export function seedQueries(fixture: Fixture): Record<string, Record<string, string>[]> {
  const pair = { user: fixture.owner.id, otherUser: fixture.peer.id }
  return {
    'GET /v3/blocks': [{ user: fixture.owner.id }],
    'GET /v3/blocks/between': [pair],
    'POST /v3/blocks': [pair],
    'DELETE /v3/blocks': [pair],
    'POST /v3/blocks/delete': [pair],
    'GET /v2/users/:user_id': [{ include_shared_groups: 'true' }],
    'GET /v4/relationships': [{ include_blocked: 'false', since: '2020-01-01T00:00:00.000000Z' }],
    'GET /v3/groups': [{ page: '1', per_page: '5', omit: 'memberships' }],
    'GET /v3/groups/:group_id/members': [{ filter: 'active' }, { filter: 'inactive' }],
    'GET /v3/groups/:group_id/messages': [{ before_id: fixture.groupMessageIds.at(-1) ?? '1', limit: '2' }, { after_id: '1' }],
    'GET /v3/chats': [{ page: '1', per_page: '20' }],
    'GET /v3/direct_messages': [{ other_user_id: fixture.peer.id }, { other_user_id: fixture.peer.id, since_id: '1', limit: '1' }],
    'GET /v3/pinned/direct_messages': [{ other_user_id: fixture.peer.id }],
    'GET /v3/groups/:group_id/likes': [{ period: 'day' }, { period: 'month' }],
    'GET /v3/poll/:group_id': [{ continuation_token: 'x' }, {}]
  }
}
