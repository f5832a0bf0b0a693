import type { Client } from 'faye'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  directMessageEnvelope,
  directMessagePage,
  groupMessageEnvelope,
  groupMessagePage,
  verificationEnvelope,
  wireChatList,
  wireGroup,
  wireGroupList,
  wireSelfUser,
  wireMessage,
  wireTokenResult,
  wireVerification
} from '../../src/main/api/decoders'
import { decodePushData } from '../../src/main/push/push-events'
import { loadRouteTable, routeKey } from '../../server/test/fuzz/routes'
import { Inbox, pushClient, subscribe, startTestService, type Json, type TestService, type TestUser } from '../../server/test/support'

/**
 * The service's own answers against (1) the desktop client's decoders and (2) the recordings of
 * the real service in tests/fixtures/recorded.
 *
 * (1) Every live payload must pass the decoder the client reads it with.
 *
 * (2) The recordings are not the contract: the real service adds fields (the contract allows
 * that, §18.25) and old captures omit some. So the comparison is by the CONTRACT's key list for
 * the payload (§15, written below as a `Shape`), never by the recording's:
 *   - every contract key is present in the live payload, with the contract's type;
 *   - every contract key is present in the recording too, with a value of the same type
 *     (`null` only where the contract allows null), unless the row lists it in `recordedOmits`
 *     (the capture lacks it) or `recordedQuirks` (the real service sends another type there);
 *     both lists are checked to be still true, so they cannot go stale silently;
 *   - keys outside the contract, on either side, are ignored. Values are never compared.
 *
 * Adding an operation is one row in ROWS. A row whose operations the service does not declare
 * yet is skipped, so areas can land in any order.
 */

// ── shapes (§15) ─────────────────────────────────────────────────────────────────────────────

/** A JSON type, `?` = may also be null; `null` = always null. */
type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null'
type Spec = Kind | `${Exclude<Kind, 'null'>}?`
interface Shape {
  [key: string]: Spec | Shape
}

const LOCATION: Shape = { lat: 'string', lng: 'string', name: 'string?' }

/** §15.1, the keys every message has. */
const MESSAGE: Shape = {
  id: 'string',
  source_guid: 'string',
  created_at: 'number',
  user_id: 'string',
  sender_id: 'string',
  sender_type: 'string',
  name: 'string',
  avatar_url: 'string?',
  text: 'string',
  system: 'boolean',
  favorited_by: 'array',
  reactions: 'array',
  attachments: 'array',
  updated_at: 'number?',
  deleted_at: 'string?',
  deletion_actor: 'string?',
  pinned_at: 'number?',
  pinned_by: 'string?',
  parent_id: 'null',
  picture_url: 'string?',
  location: LOCATION
}
const GROUP_MESSAGE: Shape = { ...MESSAGE, group_id: 'string' }
const DIRECT_MESSAGE: Shape = { ...MESSAGE, chat_id: 'string', conversation_id: 'string', recipient_id: 'string' }

/** §15.2. */
const GROUP: Shape = {
  id: 'string',
  group_id: 'string',
  name: 'string',
  type: 'string',
  description: 'string',
  image_url: 'string?',
  creator_user_id: 'string',
  created_at: 'number',
  updated_at: 'number',
  office_mode: 'boolean',
  share_url: 'string?',
  members: 'array?',
  members_count: 'number',
  max_members: 'number',
  messages: {
    count: 'number',
    last_message_id: 'string?',
    last_message_created_at: 'number?',
    preview: { nickname: 'string?', text: 'string?', image_url: 'string?', attachments: 'array' }
  },
  like_icon: 'object?',
  requires_approval: 'boolean',
  show_join_question: 'boolean',
  join_question: 'object',
  visibility: 'string',
  message_deletion_mode: 'array',
  message_edit_period: 'number',
  theme_name: 'string?'
}

/** §15.3. */
const CUT_DOWN_GROUP: Shape = {
  avatar_url: 'string?',
  created_at: 'number',
  creator_id: 'string',
  description: 'string',
  disable_sharing: 'boolean',
  id: 'string',
  max_memberships: 'number',
  name: 'string',
  phone_number: 'null',
  preview_url: 'null',
  share_url: 'string?',
  shared: 'boolean',
  theme_name: 'string?',
  thread_id: 'null',
  type: 'string',
  updated_at: 'number'
}

/** §15.5; `last_message` is compared as a message in its own row. */
const CHAT: Shape = {
  created_at: 'number',
  updated_at: 'number',
  messages_count: 'number',
  last_message: 'object',
  other_user: { id: 'string', name: 'string', avatar_url: 'string?' },
  message_deletion_mode: 'array',
  message_edit_period: 'number'
}

/** §15.8. `type` is conditional; login challenges (the ones compared here) have it. */
const VERIFICATION: Shape = { code: 'string', methods: 'object', status: 'string', long_pin: 'string', system_number: 'string', type: 'string' }

const TOKEN_RESULT: Shape = {
  access_token: 'string',
  user_id: 'string',
  user_name: 'string',
  expires_at: 'number?',
  user: { id: 'string', name: 'string', email: 'string', avatar_url: 'string?', admin: 'boolean' }
}

/** §15.9. */
const SELF_USER: Shape = {
  id: 'string',
  user_id: 'string',
  name: 'string',
  email: 'string',
  phone_number: 'string',
  image_url: 'string?',
  bio: 'string',
  created_at: 'number',
  updated_at: 'number',
  share_url: 'string?',
  mfa: { enabled: 'boolean', channels: 'array' }
}

/** §14.4: `data` of every event but typing and ping. */
const EVENT = (subject: Shape): Shape => ({ type: 'string', alert: 'string', subject, received_at: 'number' })

const kindOf = (value: unknown): Kind =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as 'string' | 'number' | 'boolean' | 'object')

const allows = (spec: Spec, value: unknown): boolean => {
  const kind = kindOf(value)
  if (spec === 'null') return kind === 'null'
  if (spec.endsWith('?')) return kind === 'null' || kind === spec.slice(0, -1)
  return kind === spec
}

const isRecord = (value: unknown): value is Record<string, unknown> => kindOf(value) === 'object'

/** Contract keys missing or mistyped in `value`, as dotted paths. */
function shapeProblems(shape: Shape, value: unknown, where = ''): string[] {
  if (!isRecord(value)) return [`${where || '(root)'}: not an object`]
  const problems: string[] = []
  for (const [key, spec] of Object.entries(shape)) {
    const path = `${where}${key}`
    if (!Object.hasOwn(value, key)) problems.push(`${path}: missing`)
    else if (typeof spec === 'object') problems.push(...shapeProblems(spec, value[key], `${path}.`))
    else if (!allows(spec, value[key])) problems.push(`${path}: ${kindOf(value[key])}, contract says ${spec}`)
  }
  return problems
}

/** Every contract key path of a shape, nested ones included. */
function keyPaths(shape: Shape, where = ''): string[] {
  return Object.entries(shape).flatMap(([key, spec]) => [`${where}${key}`, ...(typeof spec === 'object' ? keyPaths(spec, `${where}${key}.`) : [])])
}

/**
 * The recording against the contract, with the row's documented exceptions: omitted keys may be
 * missing, quirky keys may have another type. An exception that no longer applies is a problem.
 */
function recordingProblems(shape: Shape, recorded: unknown, omits: readonly string[], quirks: Readonly<Record<string, string>>): string[] {
  const found = shapeProblems(shape, recorded)
  const problems = found.filter((problem) => {
    const path = problem.slice(0, problem.indexOf(':'))
    if (problem.endsWith(': missing') && omits.some((omitted) => path === omitted || path.startsWith(`${omitted}.`))) return false
    if (Object.hasOwn(quirks, path) && !problem.endsWith(': missing')) return false
    return !omits.some((omitted) => path.startsWith(`${omitted}.`))
  })
  const paths = keyPaths(shape)
  for (const omitted of omits) {
    if (!paths.includes(omitted)) problems.push(`recordedOmits lists ${omitted}, which the contract does not`)
    else if (!found.includes(`${omitted}: missing`)) problems.push(`recordedOmits lists ${omitted}, but the recording has it`)
  }
  for (const quirk of Object.keys(quirks)) {
    if (!found.some((problem) => problem.startsWith(`${quirk}: `) && !problem.endsWith(': missing'))) {
      problems.push(`recordedQuirks lists ${quirk}, but the recording matches the contract there`)
    }
  }
  return problems
}

// ── recordings ───────────────────────────────────────────────────────────────────────────────

const RECORDED = new URL('../../tests/fixtures/recorded/', import.meta.url)

function recording(file: string, ...path: (string | number)[]): unknown {
  let value: unknown = JSON.parse(readFileSync(new URL(file, RECORDED), 'utf8'))
  for (const step of path) value = (value as Record<string | number, unknown>)[step]
  return value
}

// ── rows ─────────────────────────────────────────────────────────────────────────────────────

/** What the rows share: a service with two users in one group, a DM chat, and push inboxes. */
interface World {
  service: TestService
  alice: TestUser
  bob: TestUser
  groupId: string
  /** Bob's `/user/:id` and the group's `/group/:id` channel. */
  bobInbox: Inbox
  aliceClient: Client
  /** The last L1 answers of the sign-in flow, kept for the token and verification rows. */
  challenge: Json
  granted: Json
}

interface Row {
  name: string
  /** Route keys (`POST /v3/groups`) the row needs; skipped while any is missing. */
  requires: string[]
  /** The payload, out of any envelope. */
  live: (world: World) => Promise<unknown>
  /** The client's decoder; a message when it refuses the payload. */
  decode: (payload: unknown) => string | null
  /** The contract's keys for the payload, compared with `recorded`. */
  shape: Shape
  recorded?: { file: string; path: (string | number)[] }
  /** Contract keys the recording does not have (dotted paths). */
  recordedOmits?: string[]
  /** Contract keys where the real service sends another type than the contract says. */
  recordedQuirks?: Record<string, string>
}

const withSchema =
  (schema: z.ZodType) =>
  (payload: unknown): string | null => {
    const result = schema.safeParse(payload)
    return result.success ? null : JSON.stringify(result.error.issues).slice(0, 500)
  }

const asPush =
  (type: string) =>
  (payload: unknown): string | null => {
    const result = decodePushData(payload)
    if (!result.ok) return String(result.error).slice(0, 500)
    return result.event.type === type ? null : `decoded as ${result.event.type}`
  }

async function ok(world: World, method: string, path: string, body?: unknown, attest = false): Promise<Json> {
  const result = await world.service.call(method, path, { token: world.alice.token, ...(body === undefined ? {} : { body }), attest })
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`)
  // v3 answers are enveloped; v2, v4 and the image service are bare.
  return path.startsWith('/v3/') && isRecord(result.body) && 'meta' in result.body ? result.body.response : result.body
}

async function pushed(world: World, type: string, match: (data: Json) => boolean = () => true): Promise<Json> {
  return (await world.bobInbox.waitFor((item) => item.data?.type === type && match(item.data))).data
}

let guid = 0
const text = (t: string): { message: { source_guid: string; text: string } } => ({ message: { source_guid: `conformance-${++guid}`, text: t } })

/** Omitted by the 2025 push captures (and most others): they predate reactions in messages. */
const NO_REACTIONS = ['favorited_by', 'reactions']
const LIFECYCLE = ['updated_at', 'deleted_at', 'deletion_actor', 'pinned_at', 'pinned_by', 'parent_id']

const ROWS: Row[] = [
  // Sign-in.
  {
    name: 'L1 202: verification',
    requires: ['POST /v2/access_tokens'],
    live: async (w) => w.challenge.verification,
    decode: withSchema(wireVerification),
    shape: VERIFICATION,
    recorded: { file: 'gmwindows-observed/gmw_01_2.2_Sign_in.json', path: ['data', 'response', 'verification'] }
  },
  {
    name: 'V1: verification',
    requires: ['GET /v3/verifications/:mfa_id'],
    live: async (w) => (await w.service.call('GET', `/v3/verifications/${w.challenge.verification.code}`)).body.verification,
    decode: (payload) => withSchema(verificationEnvelope)({ verification: payload }),
    shape: VERIFICATION,
    recorded: { file: 'gmwindows-observed/gmw_01_2.2_Sign_in.json', path: ['data', 'response', 'verification'] }
  },
  {
    name: 'L1 200: token result',
    requires: ['POST /v2/access_tokens'],
    live: async (w) => w.granted,
    decode: withSchema(wireTokenResult),
    shape: TOKEN_RESULT,
    recorded: { file: 'gmwindows-observed/gmw_04_2.2_Sign_in.json', path: ['data', 'response'] }
  },
  {
    name: 'U1: self user',
    requires: ['GET /v3/users/me'],
    live: (w) => ok(w, 'GET', '/v3/users/me'),
    decode: withSchema(wireSelfUser),
    shape: SELF_USER,
    recorded: { file: 'gmwindows-observed/gmw_06_4.1_Identity_and_contacts.json', path: ['data'] }
  },

  // Groups.
  {
    name: 'G4: group',
    requires: ['GET /v3/groups/:group_id'],
    live: (w) => ok(w, 'GET', `/v3/groups/${w.groupId}`),
    decode: withSchema(wireGroup),
    shape: GROUP,
    recorded: { file: 'gmwindows-observed/gmw_49_Group.json', path: ['data'] },
    recordedOmits: ['office_mode', 'visibility']
  },
  {
    name: 'G5: created group',
    requires: ['POST /v3/groups'],
    live: (w) => ok(w, 'POST', '/v3/groups', { name: 'Another', share: true }, true),
    decode: withSchema(wireGroup),
    shape: GROUP,
    recorded: { file: 'gmwindows-observed/gmw_49_Group.json', path: ['data'] },
    recordedOmits: ['office_mode', 'visibility']
  },
  {
    name: 'G1: group list (first group)',
    requires: ['GET /v3/groups'],
    live: async (w) => {
      const list = await ok(w, 'GET', '/v3/groups')
      const problem = withSchema(wireGroupList)(list)
      if (problem !== null) throw new Error(`G1 list: ${problem}`)
      return list[0]
    },
    decode: withSchema(wireGroup),
    shape: GROUP,
    recorded: { file: 'gmwindows-observed/gmw_49_Group.json', path: ['data'] },
    recordedOmits: ['office_mode', 'visibility']
  },

  // Group messages.
  {
    name: 'MS2: sent message',
    requires: ['POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const envelope = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('shape check'))
      const problem = withSchema(groupMessageEnvelope)(envelope)
      if (problem !== null) throw new Error(`MS2 envelope: ${problem}`)
      return envelope.message
    },
    decode: (payload) => withSchema(groupMessageEnvelope)({ message: payload }),
    shape: GROUP_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_14_line.create.json', path: ['data', 'subject'] },
    recordedOmits: NO_REACTIONS
  },
  {
    name: 'MS1: message page (first message)',
    requires: ['GET /v3/groups/:group_id/messages'],
    live: async (w) => {
      const page = await ok(w, 'GET', `/v3/groups/${w.groupId}/messages`)
      const problem = withSchema(groupMessagePage)(page)
      if (problem !== null) throw new Error(`MS1 page: ${problem}`)
      return page.messages[0]
    },
    decode: (payload) => withSchema(groupMessagePage)({ count: 1, messages: [payload] }),
    shape: GROUP_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_14_line.create.json', path: ['data', 'subject'] },
    recordedOmits: NO_REACTIONS
  },

  // Chats and direct messages.
  {
    name: 'C3: sent direct message',
    requires: ['POST /v3/direct_messages'],
    live: async (w) => {
      const envelope = await ok(w, 'POST', '/v3/direct_messages', {
        direct_message: { source_guid: `conformance-${++guid}`, recipient_id: w.bob.id, text: 'dm shape' }
      })
      const problem = withSchema(directMessageEnvelope)(envelope)
      if (problem !== null) throw new Error(`C3 envelope: ${problem}`)
      if (JSON.stringify(envelope.message) !== JSON.stringify(envelope.direct_message)) throw new Error('C3: message ≠ direct_message')
      return envelope.direct_message
    },
    decode: (payload) => withSchema(directMessageEnvelope)({ direct_message: payload }),
    shape: DIRECT_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_16_direct_message.create.json', path: ['data', 'subject'] },
    recordedOmits: [...NO_REACTIONS.slice(1), ...LIFECYCLE, 'system', 'conversation_id']
  },
  {
    name: 'C2: direct message page (first message)',
    requires: ['GET /v3/direct_messages', 'POST /v3/direct_messages'],
    live: async (w) => {
      const page = await ok(w, 'GET', `/v3/direct_messages?other_user_id=${w.bob.id}`)
      const problem = withSchema(directMessagePage)(page)
      if (problem !== null) throw new Error(`C2 page: ${problem}`)
      return page.direct_messages[0]
    },
    decode: (payload) => withSchema(directMessagePage)({ count: 1, direct_messages: [payload] }),
    shape: DIRECT_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_16_direct_message.create.json', path: ['data', 'subject'] },
    recordedOmits: [...NO_REACTIONS.slice(1), ...LIFECYCLE, 'system', 'conversation_id']
  },
  {
    name: 'C1: chat list (first chat)',
    requires: ['GET /v3/chats', 'POST /v3/direct_messages'],
    live: async (w) => {
      const list = await ok(w, 'GET', '/v3/chats')
      const problem = withSchema(wireChatList)(list)
      if (problem !== null) throw new Error(`C1 list: ${problem}`)
      return list[0]
    },
    decode: (payload) => withSchema(wireChatList)([payload]),
    shape: CHAT,
    recorded: { file: 'gmwindows-observed/gmw_52_Chat_DM_thread.json', path: ['data'] }
  },

  {
    name: 'C1: a chat\'s last_message',
    requires: ['GET /v3/chats', 'POST /v3/direct_messages'],
    live: async (w) => (await ok(w, 'GET', '/v3/chats'))[0].last_message,
    decode: withSchema(wireMessage),
    shape: DIRECT_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_16_direct_message.create.json', path: ['data', 'subject'] },
    recordedOmits: [...NO_REACTIONS.slice(1), ...LIFECYCLE, 'system', 'conversation_id']
  },
  {
    name: 'C4: edited direct message',
    requires: ['PUT /v4/direct_messages/:chat_id/messages/:message_id', 'POST /v3/direct_messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', '/v3/direct_messages', {
        direct_message: { source_guid: `conformance-${++guid}`, recipient_id: w.bob.id, text: 'dm to edit' }
      })
      const edited = await ok(w, 'PUT', `/v4/direct_messages/${encodeURIComponent(sent.direct_message.chat_id)}/messages/${sent.direct_message.id}`, { text: 'edited dm' })
      const problem = withSchema(directMessageEnvelope)(edited)
      if (problem !== null) throw new Error(`C4 envelope: ${problem}`)
      return edited.message
    },
    decode: (payload) => withSchema(directMessageEnvelope)({ message: payload }),
    shape: DIRECT_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_16_direct_message.create.json', path: ['data', 'subject'] },
    recordedOmits: [...NO_REACTIONS.slice(1), ...LIFECYCLE, 'system', 'conversation_id']
  },
  {
    name: 'MS8: pinned messages (first message)',
    requires: ['GET /v3/pinned/groups/:group_id/messages', 'POST /v3/conversations/:conversation_id/messages/:message_id/pin'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('to pin'))
      await ok(w, 'POST', `/v3/conversations/${w.groupId}/messages/${sent.message.id}/pin`)
      const page = await ok(w, 'GET', `/v3/pinned/groups/${w.groupId}/messages`)
      const problem = withSchema(groupMessagePage)(page)
      if (problem !== null) throw new Error(`MS8 page: ${problem}`)
      return page.messages[0]
    },
    decode: (payload) => withSchema(groupMessagePage)({ count: 1, messages: [payload] }),
    shape: GROUP_MESSAGE,
    recorded: { file: 'communitydocs-push/cd_push_14_line.create.json', path: ['data', 'subject'] },
    recordedOmits: NO_REACTIONS
  },
  {
    name: 'U2: updated self user',
    requires: ['POST /v3/users/update'],
    live: (w) => ok(w, 'POST', '/v3/users/update', { bio: 'Conformance' }),
    decode: withSchema(wireSelfUser),
    shape: SELF_USER,
    recorded: { file: 'gmwindows-observed/gmw_06_4.1_Identity_and_contacts.json', path: ['data'] }
  },
  {
    name: 'G6: updated group',
    requires: ['POST /v3/groups/:group_id/update'],
    live: (w) => ok(w, 'POST', `/v3/groups/${w.groupId}/update`, { description: 'updated' }),
    decode: withSchema(wireGroup),
    shape: GROUP,
    recorded: { file: 'gmwindows-observed/gmw_49_Group.json', path: ['data'] },
    recordedOmits: ['office_mode', 'visibility']
  },

  // Push events (§14.4), as Bob receives them.
  {
    name: 'push line.create',
    requires: ['POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('pushed'))
      return pushed(w, 'line.create', (data) => data.subject.id === sent.message.id)
    },
    decode: asPush('line.create'),
    shape: EVENT(GROUP_MESSAGE),
    recorded: { file: 'communitydocs-push/cd_push_14_line.create.json', path: ['data'] },
    recordedOmits: NO_REACTIONS.map((key) => `subject.${key}`)
  },
  {
    name: 'push direct_message.create',
    requires: ['POST /v3/direct_messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', '/v3/direct_messages', {
        direct_message: { source_guid: `conformance-${++guid}`, recipient_id: w.bob.id, text: 'pushed dm' }
      })
      return pushed(w, 'direct_message.create', (data) => data.subject.id === sent.direct_message.id)
    },
    decode: asPush('direct_message.create'),
    shape: EVENT(DIRECT_MESSAGE),
    recorded: { file: 'communitydocs-push/cd_push_16_direct_message.create.json', path: ['data'] },
    recordedOmits: [...NO_REACTIONS.slice(1), ...LIFECYCLE, 'system', 'conversation_id'].map((key) => `subject.${key}`)
  },
  {
    name: 'MS3: shown message',
    requires: ['GET /v4/groups/:group_id/messages/:message_id', 'POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('to show'))
      const shown = await ok(w, 'GET', `/v4/groups/${w.groupId}/messages/${sent.message.id}`)
      const problem = withSchema(groupMessageEnvelope)(shown)
      if (problem !== null) throw new Error(`MS3 envelope: ${problem}`)
      return shown.message
    },
    decode: (payload) => withSchema(groupMessageEnvelope)({ message: payload }),
    shape: GROUP_MESSAGE,
    recorded: { file: 'gmwindows-observed/gmw_47_Message.json', path: ['data'] },
    recordedOmits: ['reactions', 'updated_at', 'deleted_at', 'deletion_actor', 'parent_id', 'picture_url', 'location']
  },
  {
    name: 'MS4: edited message',
    requires: ['PUT /v4/groups/:group_id/messages/:message_id', 'POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('to edit'))
      const edited = await ok(w, 'PUT', `/v4/groups/${w.groupId}/messages/${sent.message.id}`, { text: 'edited' })
      const problem = withSchema(groupMessageEnvelope)(edited)
      if (problem !== null) throw new Error(`MS4 envelope: ${problem}`)
      return edited.message
    },
    decode: (payload) => withSchema(groupMessageEnvelope)({ message: payload }),
    shape: GROUP_MESSAGE,
    recorded: { file: 'gmwindows-observed/gmw_12_5.2_Edit.json', path: ['data', 'response', 'message'] },
    recordedOmits: ['reactions', 'deleted_at', 'deletion_actor', 'parent_id', 'picture_url', 'location']
  },
  {
    name: 'push membership.create',
    requires: ['POST /v3/groups/:group_id/members/add'],
    live: async (w) => {
      const carol = await w.service.signUp({ name: 'Carol Conformance' })
      const inbox = new Inbox()
      const client = pushClient(w.service, carol.token)
      clients.push(client)
      await subscribe(client, `/user/${carol.id}`, inbox)
      await ok(w, 'POST', `/v3/groups/${w.groupId}/members/add`, { members: [{ user_id: carol.id, nickname: 'Carol' }] }, true)
      return (await inbox.waitFor((item) => item.data?.type === 'membership.create')).data
    },
    decode: asPush('membership.create'),
    shape: EVENT(CUT_DOWN_GROUP),
    recorded: { file: 'communitydocs-push/cd_push_18_membership.create.json', path: ['data'] },
    recordedQuirks: {
      'subject.phone_number': 'the real group has a phone number; §18.5 fixes it to null here',
      'subject.shared': 'recorded as null; the contract says bool'
    }
  },
  {
    name: 'push favorite',
    requires: ['POST /v3/messages/:conversation_id/:message_id/like', 'POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('to like'))
      await ok(w, 'POST', `/v3/messages/${w.groupId}/${sent.message.id}/like`, { like_icon: { type: 'unicode', code: '👍' } })
      return pushed(w, 'favorite', (data) => data.subject.line?.id === sent.message.id)
    },
    decode: asPush('favorite'),
    shape: EVENT({ line: { ...GROUP_MESSAGE, favorited_at: 'number' }, reactions: 'array', user_id: 'string' }),
    recorded: { file: 'communitydocs-push/cd_push_19_favorite.json', path: ['data'] },
    recordedOmits: ['sender_id', 'sender_type', 'reactions', ...LIFECYCLE].map((key) => `subject.line.${key}`)
  },
  {
    name: 'push message.update',
    requires: ['PUT /v4/groups/:group_id/messages/:message_id', 'POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('to update'))
      await ok(w, 'PUT', `/v4/groups/${w.groupId}/messages/${sent.message.id}`, { text: 'updated' })
      return pushed(w, 'message.update', (data) => data.subject.id === sent.message.id)
    },
    decode: asPush('message.update'),
    shape: EVENT(GROUP_MESSAGE),
    recorded: { file: 'communitydocs-push/cd_push_21_message.update.json', path: ['data'] },
    recordedOmits: NO_REACTIONS.map((key) => `subject.${key}`)
  },
  {
    name: 'push message.deleted',
    requires: ['DELETE /v3/conversations/:conversation_id/messages/:message_id', 'POST /v3/groups/:group_id/messages'],
    live: async (w) => {
      const sent = await ok(w, 'POST', `/v3/groups/${w.groupId}/messages`, text('to delete'))
      await ok(w, 'DELETE', `/v3/conversations/${w.groupId}/messages/${sent.message.id}`)
      return pushed(w, 'message.deleted', (data) => data.subject.id === sent.message.id)
    },
    decode: asPush('message.deleted'),
    shape: EVENT(GROUP_MESSAGE),
    recorded: { file: 'communitydocs-push/cd_push_20_message.deleted.json', path: ['data'] },
    recordedOmits: NO_REACTIONS.map((key) => `subject.${key}`)
  },
  {
    name: 'push typing',
    requires: [],
    live: async (w) => {
      const started = Date.now()
      await w.aliceClient.publish(`/group/${w.groupId}`, { type: 'typing', user_id: w.alice.id, started })
      return (await w.bobInbox.waitFor((item) => item.data?.type === 'typing' && item.data.started === started)).data
    },
    decode: asPush('typing'),
    shape: { type: 'string', user_id: 'string', started: 'number' },
    recorded: { file: 'communitydocs-push/cd_push_22_typing.json', path: ['data'] }
  }
]

// ── the test ─────────────────────────────────────────────────────────────────────────────────

const declared = new Set((await loadRouteTable()).map(routeKey))

let world: World
const clients: Client[] = []

beforeAll(async () => {
  const service = await startTestService()
  const alice = await service.createUser({ name: 'Alice Conformance' })
  const bob = await service.signUp({ name: 'Bob Conformance' })
  // Alice signs in by hand, keeping the 202 and the final 200 of L1 for their rows.
  const login = { app_id: 'conformance', grant_type: 'password', username: alice.email, password: alice.password, device_id: 'conformance-device' }
  const challenge = (await service.call('POST', '/v2/access_tokens', { body: login })).body
  const code = challenge.verification.code
  await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
  await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: await service.lastPin(alice.phoneNumber) } } })
  const granted = (await service.call('POST', '/v2/access_tokens', { body: { ...login, verification: { code } } })).body
  alice.token = granted.access_token

  const group = await service.createGroup(alice, { name: 'Conformance', share: true })
  const groupId = String(group.id)
  if (declared.has('POST /v3/groups/:group_id/members/add')) {
    await service.call('POST', `/v3/groups/${groupId}/members/add`, {
      token: alice.token,
      attest: true,
      body: { members: [{ user_id: bob.id, nickname: 'Bob' }] }
    })
  } else if (declared.has('POST /v3/groups/:group_id/join/:share_token')) {
    await service.call('POST', `/v3/groups/${groupId}/join/${String(group.share_url).split('/').at(-1)}`, { token: bob.token })
  }

  const bobInbox = new Inbox()
  const bobClient = pushClient(service, bob.token)
  const aliceClient = pushClient(service, alice.token)
  clients.push(bobClient, aliceClient)
  await subscribe(bobClient, `/user/${bob.id}`, bobInbox)
  const member = await service.call('GET', `/v3/groups/${groupId}`, { token: bob.token })
  if (member.status === 200) await subscribe(bobClient, `/group/${groupId}`, bobInbox)
  world = { service, alice, bob, groupId, bobInbox, aliceClient, challenge, granted }
})

afterAll(async () => {
  for (const client of clients) client.disconnect()
  await world?.service.close()
})

describe('the service answers what the client decodes, in the shapes the real service records', () => {
  for (const row of ROWS) {
    const missing = row.requires.filter((key) => !declared.has(key))
    it.skipIf(missing.length > 0)(row.name, async () => {
      const payload = await row.live(world)
      expect(row.decode(payload), 'the client decoder refuses it').toBeNull()
      expect(shapeProblems(row.shape, payload), 'live payload vs contract').toEqual([])
      if (row.recorded !== undefined) {
        const recorded = recording(row.recorded.file, ...row.recorded.path)
        expect(recordingProblems(row.shape, recorded, row.recordedOmits ?? [], row.recordedQuirks ?? {}), `recording ${row.recorded.file}`).toEqual([])
      }
    })
  }
})

describe('the comparison itself', () => {
  it('flags missing and mistyped keys, and stale exceptions', () => {
    const shape: Shape = { a: 'string', b: 'number?', c: { d: 'boolean' } }
    expect(shapeProblems(shape, { a: 'x', b: null, c: { d: true }, extra: 1 })).toEqual([])
    expect(shapeProblems(shape, { a: 1, c: { d: 'no' } })).toEqual(['a: number, contract says string', 'b: missing', 'c.d: string, contract says boolean'])
    expect(recordingProblems(shape, { a: 'x', c: { d: true } }, ['b'], {})).toEqual([])
    expect(recordingProblems(shape, { a: 'x', b: 1, c: { d: true } }, ['b'], {})).toEqual(['recordedOmits lists b, but the recording has it'])
    expect(recordingProblems(shape, { a: 2, b: 1, c: { d: true } }, [], { a: 'sent as a number' })).toEqual([])
    expect(recordingProblems(shape, { a: 'x', b: 1, c: { d: true } }, [], { a: 'stale' })).toEqual([
      'recordedQuirks lists a, but the recording matches the contract there'
    ])
  })
})
