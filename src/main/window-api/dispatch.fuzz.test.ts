import fc from 'fast-check'
import { z } from 'zod'
import { afterEach, describe, expect, it } from 'vitest'
import { INVOKE_CHANNELS, isInvokeChannel, type InvokeChannel, type InvokeRequest, type IpcResult } from '@shared/window-api'
import { createDispatch } from './dispatch'
import { requestSchemas } from './request-schemas'
import { HANDLED, recordingHandlers, type HandlerCall } from './testing/recording-handlers'

/**
 * Property-based junk over every invoke channel, through the real dispatch and the real request
 * schemas. The handlers only record what reaches them: the schemas must be the only door, so a
 * payload known to be invalid reaching a handler fails the test, whatever that handler would do.
 *
 * fast-check prints the seed and the shrunk payload of any failure; re-run with that seed.
 */

/** `FUZZ_SCALE=10 npx vitest run --project unit src/main/window-api/dispatch.fuzz.test.ts` for a deeper local run. */
const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1)
/** 10,000 payloads in all at scale 1. */
const RUNS = {
  anything: 3000 * SCALE,
  wrongType: 2000 * SCALE,
  extraKey: 1000 * SCALE,
  missingKey: 1000 * SCALE,
  prototypeKey: 1000 * SCALE,
  hugeString: 500 * SCALE,
  unknownChannel: 1000 * SCALE,
  valid: 500 * SCALE
}

const CONVERSATION = 'g42'
const CLIENT_ID = '0b8f6f3e-6a38-4a51-9f0e-3d1c1e3f6a11'
const settings = {
  baseUrl: 'http://127.0.0.1:8080',
  v2Url: 'http://127.0.0.1:8080/v2',
  v4Url: 'http://127.0.0.1:8080/v4',
  imageServiceUrl: 'http://127.0.0.1:8080/image',
  pictureOrigins: 'https://pictures.example.com',
  pushUrl: 'http://127.0.0.1:8080/push',
  pushWsUrl: 'ws://127.0.0.1:8080/push',
  appId: 'parley',
  verifyToken: 'token'
}

/**
 * A small valid request for each channel, written by hand: the type makes a new channel without one
 * a compile error, and the first test makes it a failure too. Each fills in every field it can,
 * nested ones included, so that the mutations below reach them, and none is null: a null example
 * would not say which other kind its field takes.
 */
const VALID: { [C in InvokeChannel]: InvokeRequest<C> } = {
  'app:ready': {},
  'polls:create': {
    conversationId: CONVERSATION,
    poll: { subject: 'Lunch?', options: ['Yes', 'No'], multiple: false, anonymous: true, expiresAt: 1_900_000_000 }
  },
  'polls:get': { conversationId: CONVERSATION, pollId: '7' },
  'polls:vote': { conversationId: CONVERSATION, pollId: '7', optionIds: ['1', '2'] },
  'polls:end': { conversationId: CONVERSATION, pollId: '7' },
  'polls:list': { conversationId: CONVERSATION, next: 'page-2' },
  'typing:typed': { conversationId: CONVERSATION },
  'session:get': {},
  'session:signIn': { username: 'ada@example.com', password: 'secret' },
  'session:sendCode': {},
  'session:confirmCode': { code: '123456' },
  'session:cancelVerification': {},
  'session:signOut': {},
  'conversations:list': {},
  'conversations:open': { conversationId: CONVERSATION },
  'conversations:openAt': { conversationId: CONVERSATION, messageId: '42', beforeId: '57' },
  'conversations:pictures': { conversationId: CONVERSATION, beforeId: '57' },
  'exports:start': { exportId: CLIENT_ID, conversationId: CONVERSATION, format: 'html' },
  'exports:cancel': { exportId: CLIENT_ID },
  'conversations:close': { conversationId: CONVERSATION },
  'conversations:leftOpen': {},
  'messages:loadOlder': { conversationId: CONVERSATION, beforeId: '1001' },
  'search:messages': { query: 'hik "blue whale" from:ada has:image before:2024-05-31', conversationId: CONVERSATION, after: '1700000000.1001.42' },
  'messages:send': {
    conversationId: CONVERSATION,
    text: 'Hello',
    clientId: CLIENT_ID,
    attachments: [{ type: 'image', url: 'http://127.0.0.1:8080/image/i/0123456789abcdef' }]
  },
  'uploads:start': { uploadId: CLIENT_ID, contentType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) },
  'uploads:cancel': { uploadId: CLIENT_ID },
  'drafts:list': {},
  'drafts:keep': { conversationId: CONVERSATION, text: 'Half written', pictures: [{ id: CLIENT_ID, name: 'a.png', contentType: 'image/png', url: 'http://127.0.0.1:8080/image/i/0123456789abcdef' }] },
  'messages:retry': { conversationId: CONVERSATION, clientId: CLIENT_ID },
  'messages:discard': { conversationId: CONVERSATION, clientId: CLIENT_ID },
  'conversations:mute': { conversationId: CONVERSATION, duration: 'oneHour' },
  'conversations:unmute': { conversationId: CONVERSATION },
  'desktop:get': {},
  'presence:set': { status: 'away' },
  'presence:activity': {},
  'notifications:mute': { duration: 'untilTomorrow' },
  'notifications:unmute': {},
  'settings:update': { changes: { sound: false, autoAwayMinutes: 10, theme: 'dark' } },
  'shell:openExternal': { url: 'https://example.com/page' },
  'messages:react': { conversationId: CONVERSATION, messageId: '1001', emoji: '👍' },
  'messages:unreact': { conversationId: CONVERSATION, messageId: '1001' },
  'messages:edit': { conversationId: CONVERSATION, messageId: '1001', text: 'Edited' },
  'messages:delete': { conversationId: CONVERSATION, messageId: '1001' },
  'messages:setPinned': { conversationId: CONVERSATION, messageId: '1001', pinned: true },
  'messages:pinned': { conversationId: CONVERSATION },
  'messages:mostLiked': { conversationId: CONVERSATION },
  'groups:create': { group: { name: 'Climbers', description: 'Weekends', imageUrl: 'https://example.com/g.png', share: true } },
  'groups:get': { groupId: '42' },
  'groups:update': {
    groupId: '42',
    changes: {
      name: 'Climbers',
      description: 'Weekdays too',
      imageUrl: 'https://example.com/a.png',
      type: 'closed',
      requiresApproval: true,
      joinQuestion: 'Why?',
      share: false,
      deletionMode: ['sender', 'admin']
    }
  },
  'groups:destroy': { groupId: '42' },
  'groups:transferOwnership': { groupId: '42', userId: '9' },
  'groups:leave': { groupId: '42' },
  'groups:former': {},
  'groups:rejoin': { groupId: '42' },
  'groups:checkLink': { link: 'http://127.0.0.1:8080/join_group/42/Ab3dEf9H' },
  'groups:join': { link: 'http://127.0.0.1:8080/join/abc', answer: 'Because' },
  'groups:pendingJoins': {},
  'groups:forgetPendingJoin': { groupId: '42' },
  'members:former': { groupId: '42' },
  'members:add': {
    groupId: '42',
    candidates: [
      { nickname: 'Bo', userId: '9' },
      { nickname: 'Cy', phone: '+15550100' },
      { nickname: 'Di', email: 'di@example.com' }
    ]
  },
  'members:remove': { groupId: '42', membershipId: '5' },
  'members:ban': { groupId: '42', membershipId: '5' },
  'members:setRole': { groupId: '42', membershipId: '5', role: 'admin' },
  'members:setNickname': { groupId: '42', nickname: 'Ada' },
  'members:joinRequests': { groupId: '42' },
  'members:decide': { groupId: '42', membershipId: '5', approve: false },
  'people:profile': { userId: '9' },
  'people:block': { userId: '9' },
  'people:unblock': { userId: '9' },
  'people:standing': { userId: '9' },
  'people:blocked': {},
  'people:candidates': {},
  'contacts:list': {},
  'contacts:addFromLink': { link: 'http://127.0.0.1:8080/contact/xyz' },
  'contacts:import': { importId: CLIENT_ID, cards: [{ name: 'Bo', phone: '+15550100' }] },
  'contacts:remove': { userId: '9' },
  'contacts:myLink': {},
  'chats:start': { userId: '9' },
  'session:textInstead': {},
  'session:cancelTextRoute': {},
  'session:startOver': {},
  'account:get': {},
  'account:updateProfile': { changes: { name: 'Ada', email: 'ada@example.com', bio: 'Hi', avatarUrl: 'https://example.com/me.png' } },
  'account:changePassword': { current: 'secret', next: 'secret2' },
  'security:beginTwoStep': {},
  'security:confirmTwoStep': { code: '123456' },
  'security:cancelTwoStep': {},
  'security:disableTwoStep': {},
  'security:newBackupCode': {},
  'security:signedInApps': {},
  'security:signOutApp': { id: '3' },
  'service:get': {},
  'service:test': { settings },
  'service:save': { settings },
  'storage:get': {},
  'storage:keepFullHistory': { on: false },
  'storage:pause': {},
  'storage:resume': {},
  'storage:deleteLocalData': {}
}

type Path = readonly string[]
type Json = Record<string, unknown>

/** What reached a handler, in order. */
const calls: HandlerCall[] = []
const warnings: string[] = []
const handlers = recordingHandlers(calls)
const dispatch = createDispatch(handlers, { warn: (message) => warnings.push(message) })

afterEach(() => {
  calls.length = 0
  warnings.length = 0
})

const REFUSED = { ok: false, error: { code: 'VALIDATION', message: expect.any(String) } }

/** Dispatches once, with nothing recorded from before, and answers what came back and what reached a handler. */
async function send(channel: unknown, payload: unknown): Promise<{ answer: IpcResult<unknown>; reached: typeof calls }> {
  calls.length = 0
  const answer = await dispatch(channel, payload)
  return { answer, reached: [...calls] }
}

async function expectRefused(channel: unknown, payload: unknown): Promise<void> {
  const { answer, reached } = await send(channel, payload)
  expect(answer).toStrictEqual(REFUSED)
  expect(reached).toEqual([])
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
}

/** The fields of an object, or the items of a list, keyed as a path step; nothing for any other value. */
function children(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item])
  return isPlainObject(value) ? Object.entries(value) : []
}

/** Paths to every field of a valid example, nested objects and list items included (not into bytes). */
function fieldPaths(value: unknown, prefix: Path = []): Path[] {
  return children(value).flatMap(([key, field]) => [[...prefix, key], ...fieldPaths(field, [...prefix, key])])
}

/** Paths to every object in a valid example, the request itself and those in lists included. */
function objectPaths(value: unknown, prefix: Path = []): Path[] {
  const below = children(value).flatMap(([key, field]) => objectPaths(field, [...prefix, key]))
  return isPlainObject(value) ? [prefix, ...below] : below
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => children(node).find(([name]) => name === key)?.[1], value)
}

/** A deep copy of the example (bytes kept as they are), changed at one place by `change`. */
function changed(example: unknown, path: Path, change: (parent: Json, key: string) => void): Json {
  const copy = structuredClone(example) as Json
  const parent = valueAt(copy, path.slice(0, -1))
  if (typeof parent !== 'object' || parent === null) throw new Error(`no object or list at ${path.join('.')}`)
  // A list takes its item's index as a key like any other.
  change(parent as Json, path[path.length - 1] ?? '')
  return copy
}

/** The declared object schema at a path, when there is one (a union ends the walk). */
function objectSchemaAt(channel: InvokeChannel, path: Path): z.ZodObject | undefined {
  let node: z.ZodType = requestSchemas[channel]
  for (const key of path) {
    const container = unwrapped(node)
    const field: unknown =
      container instanceof z.ZodArray ? container.element : container instanceof z.ZodObject ? container.shape[key] : undefined
    if (!(field instanceof z.ZodType)) return undefined
    node = field
  }
  const object = unwrapped(node)
  return object instanceof z.ZodObject ? object : undefined
}

function unwrapped(node: z.ZodType): z.ZodType {
  return node instanceof z.ZodOptional || node instanceof z.ZodNullable ? unwrapped(node.unwrap() as z.ZodType) : node
}

/** Fields the schema requires: taking one away must be refused. */
function requiredPaths(channel: InvokeChannel): Path[] {
  return fieldPaths(VALID[channel]).filter((path) => {
    const field = objectSchemaAt(channel, path.slice(0, -1))?.shape[path[path.length - 1] ?? '']
    return field instanceof z.ZodType && !field.isOptional()
  })
}

function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (value instanceof Uint8Array) return 'bytes'
  return typeof value
}

/** Values of every kind but null and undefined, which some fields take. */
const OTHER_KINDS: unknown[] = [0, -1, 1.5, Number.NaN, true, false, 'text', '', [], ['1'], {}, { a: 1 }, new Uint8Array([1])]

const HUGE = 'x'.repeat(1_000_000)

const fieldsByChannel = INVOKE_CHANNELS.map((channel) => ({ channel, fields: fieldPaths(VALID[channel]) }))
const channelsWithFields = fieldsByChannel.filter(({ fields }) => fields.length > 0)
const requiredByChannel = INVOKE_CHANNELS.map((channel) => ({ channel, required: requiredPaths(channel) })).filter(
  ({ required }) => required.length > 0
)
const stringFields = fieldsByChannel
  .map(({ channel, fields }) => ({ channel, fields: fields.filter((path) => typeof valueAt(VALID[channel], path) === 'string') }))
  .filter(({ fields }) => fields.length > 0)

const anyChannel = fc.constantFrom(...INVOKE_CHANNELS)
/** Keys no schema declares at any level. */
const unknownKey = fc.oneof(fc.string(), fc.constantFrom('extra', 'id ', 'Code', 'conversationID', 'toString', 'valueOf'))

/**
 * When the shape of a value alone shows a channel must refuse it: not an object, or an object
 * with a key the channel does not declare or without one it requires. Otherwise undecided.
 */
function plainlyInvalid(channel: InvokeChannel, payload: unknown): boolean {
  const schema = objectSchemaAt(channel, [])
  if (schema === undefined) throw new Error(`${channel} is not an object schema`)
  const required = Object.keys(schema.shape).filter((key) => !(schema.shape[key] as z.ZodType).isOptional())
  if (payload === null || payload === undefined) return required.length > 0
  if (typeof payload !== 'object' || Array.isArray(payload)) return true
  const keys = Object.keys(payload)
  return keys.some((key) => !Object.hasOwn(schema.shape, key)) || required.some((key) => !keys.includes(key))
}

describe('dispatch under random payloads', () => {
  it('has a valid example for every channel, and each reaches its handler as sent', async () => {
    expect(Object.keys(VALID).sort()).toEqual([...INVOKE_CHANNELS].sort())
    for (const channel of INVOKE_CHANNELS) {
      const { answer, reached } = await send(channel, VALID[channel])
      expect(answer, channel).toStrictEqual({ ok: true, value: HANDLED })
      expect(reached).toEqual([{ channel, request: VALID[channel] }])
    }
  })

  it('passes sampled valid payloads to their handler and to no other', async () => {
    await fc.assert(
      fc.asyncProperty(anyChannel, async (channel) => {
        const { answer, reached } = await send(channel, VALID[channel])
        expect(answer).toStrictEqual({ ok: true, value: HANDLED })
        expect(reached).toEqual([{ channel, request: VALID[channel] }])
      }),
      { numRuns: RUNS.valid }
    )
  })

  it('answers any value exactly: refused without reaching a handler, or handled once', async () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true
    })
    await fc.assert(
      fc.asyncProperty(anyChannel, anything, async (channel, payload) => {
        const { answer, reached } = await send(channel, payload)
        if (plainlyInvalid(channel, payload) || !answer.ok) {
          expect(answer).toStrictEqual(REFUSED)
          expect(reached).toEqual([])
        } else {
          expect(answer).toStrictEqual({ ok: true, value: HANDLED })
          expect(reached.map((call) => call.channel)).toEqual([channel])
        }
      }),
      { numRuns: RUNS.anything }
    )
  })

  it('refuses a field of the wrong type, at any depth', async () => {
    const mutation = fc
      .constantFrom(...channelsWithFields)
      .chain(({ channel, fields }) => fc.tuple(fc.constant(channel), fc.constantFrom(...fields)))
      .chain(([channel, path]) => {
        const original = kind(valueAt(VALID[channel], path))
        const wrong = OTHER_KINDS.filter((value) => kind(value) !== original)
        return fc.tuple(fc.constant(channel), fc.constant(path), fc.constantFrom(...wrong))
      })
    await fc.assert(
      fc.asyncProperty(mutation, async ([channel, path, wrong]) => {
        await expectRefused(channel, changed(VALID[channel], path, (parent, key) => (parent[key] = wrong)))
      }),
      { numRuns: RUNS.wrongType }
    )
  })

  it('refuses a key no schema declares, at any depth', async () => {
    const mutation = fc
      .constantFrom(...INVOKE_CHANNELS)
      .chain((channel) => fc.tuple(fc.constant(channel), fc.constantFrom(...objectPaths(VALID[channel])), unknownKey, fc.jsonValue()))
      .filter(([channel, path, key]) => !Object.hasOwn(objectSchemaAt(channel, path)?.shape ?? {}, key))
    await fc.assert(
      fc.asyncProperty(mutation, async ([channel, path, key, value]) => {
        const payload = changed(VALID[channel], [...path, key], (parent, name) => Object.defineProperty(parent, name, { value, enumerable: true }))
        await expectRefused(channel, payload)
      }),
      { numRuns: RUNS.extraKey }
    )
  })

  it('refuses a request without a field it requires, at any depth', async () => {
    const mutation = fc
      .constantFrom(...requiredByChannel)
      .chain(({ channel, required }) => fc.tuple(fc.constant(channel), fc.constantFrom(...required)))
    await fc.assert(
      fc.asyncProperty(mutation, async ([channel, path]) => {
        await expectRefused(channel, changed(VALID[channel], path, (parent, key) => Reflect.deleteProperty(parent, key)))
      }),
      { numRuns: RUNS.missingKey }
    )
  })

  it('refuses prototype-pollution keys, and the prototype stays clean', async () => {
    const mutation = fc
      .constantFrom(...INVOKE_CHANNELS)
      .chain((channel) =>
        fc.tuple(
          fc.constant(channel),
          fc.constantFrom(...objectPaths(VALID[channel])),
          fc.constantFrom('__proto__', 'constructor', 'prototype'),
          fc.oneof(fc.constant({ polluted: true }), fc.constant({ prototype: { polluted: true } }), fc.jsonValue())
        )
      )
    await fc.assert(
      fc.asyncProperty(mutation, async ([channel, path, key, value]) => {
        // As JSON.parse makes them: an own key named `__proto__`, not a changed prototype.
        const payload = changed(VALID[channel], [...path, key], (parent, name) =>
          Object.defineProperty(parent, name, { value, enumerable: true, configurable: true, writable: true })
        )
        await expectRefused(channel, payload)
        expect(Object.prototype).not.toHaveProperty('polluted')
      }),
      { numRuns: RUNS.prototypeKey }
    )
  })

  it('refuses a huge string in any text field', async () => {
    const mutation = fc
      .constantFrom(...stringFields)
      .chain(({ channel, fields }) => fc.tuple(fc.constant(channel), fc.constantFrom(...fields), fc.string({ maxLength: 4 })))
    await fc.assert(
      fc.asyncProperty(mutation, async ([channel, path, prefix]) => {
        await expectRefused(channel, changed(VALID[channel], path, (parent, key) => (parent[key] = prefix + HUGE)))
      }),
      { numRuns: RUNS.hugeString }
    )
  })

  it('refuses any unknown channel, whatever the payload', async () => {
    const channel = fc.oneof(
      fc.string().filter((name) => !isInvokeChannel(name)),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'SESSION:GET', 'session:get ', 'session:', ':get', ''),
      fc.anything().filter((value) => typeof value !== 'string')
    )
    const payload = fc.oneof(fc.jsonValue(), anyChannel.map((known) => VALID[known]))
    await fc.assert(
      fc.asyncProperty(channel, payload, async (name, request) => {
        await expectRefused(name, request)
        expect(warnings.at(-1)).toBe('refused a call on an unknown channel')
      }),
      { numRuns: RUNS.unknownChannel }
    )
  })
})
