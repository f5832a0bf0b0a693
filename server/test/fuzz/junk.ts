import fc from 'fast-check'

/**
 * Generators of hostile input for the fuzz tests: JSON trees that plain objects cannot express
 * (duplicate keys, `__proto__` as an own key, number literals JSON.stringify never writes), odd
 * strings, malformed JSON text, wrong content types, and percent-encoded path and query pieces.
 */

// ── JSON trees ───────────────────────────────────────────────────────────────────────────────

/** Literal JSON text, written as is: `1e999`, `-0`, `123456789012345678901234567890`. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as an ordered list of entries, so keys may repeat and `__proto__` stays an own key. */
export class JsonObject {
  constructor(readonly entries: readonly (readonly [string, Junk])[]) {}
}

export type Junk = null | boolean | number | string | RawJson | JsonObject | readonly Junk[]

export function serialize(value: Junk): string {
  if (value instanceof RawJson) return value.text
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`).join(',')}}`
  }
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`
  // NaN and ±Infinity become null here, as JSON.stringify writes them.
  return JSON.stringify(value)
}

/** Plain JSON (objects keep their first entry per key) into a tree the mutators can walk. */
export function toJunk(value: unknown): Junk {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(toJunk)
  if (typeof value === 'object') return new JsonObject(Object.entries(value).map(([key, item]) => [key, toJunk(item)] as const))
  return null
}

/** Field names of the contract (§3–§13), so junk objects often look like real request bodies. */
export const VOCABULARY = [
  'message', 'direct_message', 'group', 'membership', 'members', 'verification', 'user', 'mfa', 'channel',
  'source_guid', 'text', 'attachments', 'type', 'url', 'lat', 'lng', 'name', 'placeholder', 'charmap', 'poll_id',
  'recipient_id', 'pin', 'method', 'code', 'status', 'app_id', 'grant_type', 'username', 'password',
  'password_current', 'device_id', 'description', 'image_url', 'avatar_url', 'bio', 'email', 'phone_number',
  'share', 'office_mode', 'theme_name', 'requires_approval', 'show_join_question', 'join_question', 'like_icon',
  'visibility', 'group_type', 'message_deletion_mode', 'nickname', 'user_id', 'guid', 'role', 'approval',
  'answer', 'response', 'duration', 'group_id', 'owner_id', 'requests', 'subject', 'options', 'title',
  'expiration', 'votes', 'pack_id', 'pack_index', 'advance_seconds', 'from', 'to', 'token', 'filter', 'period'
] as const

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'] as const

// ── strings ──────────────────────────────────────────────────────────────────────────────────

export const ONE_MEGABYTE = 'x'.repeat(1024 * 1024)

const ODD_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\uD800', '\uDC00', 'x\uD83D', '\uDE00x', '\uFEFF', '\u200B', '\u202Eevil\u202C',
  '\u05E9\u05DC\u05D5\u05DD', '👨‍👩‍👧‍👦', '🏳️‍🌈', 'e\u0301\u0301\u0301', 'ﷺ', '\u{10FFFF}', '\uFFFF', '\r\n', '\t',
  '%00', '%2F', '../../etc/passwd', '<script>alert(1)</script>', "'; DROP TABLE users;--", 'null', 'true', 'undefined',
  'NaN', 'Infinity', '-1', '0', '1e3', '0x10', '٣', '１２３', '123456789012345678901234567890', '+1 5555550199',
  'a@b', 'http://127.0.0.1/image/i/00000000000000000000000000000000', '❤️', '👍'
]

/** Strings that break naive handling: NUL, lone surrogates, RTL overrides, ZWJ emoji, SQL, paths. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 900, maxLength: 2100 }) },
  { weight: 1, arbitrary: fc.constant(ONE_MEGABYTE) }
)

// ── numbers ──────────────────────────────────────────────────────────────────────────────────

const RAW_NUMBERS = ['1e999', '-1e999', '-0', '0.0', '1E2', '123456789012345678901234567890', '9007199254740993', '1.0000000000000002', '5e-324']

export const oddNumber: fc.Arbitrary<number | RawJson> = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, 1.5, -0.5, 1e21, 525_601, 8.64e15),
  fc.double(),
  fc.constantFrom(...RAW_NUMBERS).map((text) => new RawJson(text))
)

// ── values ───────────────────────────────────────────────────────────────────────────────────

export const junkKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...VOCABULARY) },
  { weight: 2, arbitrary: fc.constantFrom(...POLLUTION_KEYS) },
  { weight: 2, arbitrary: oddString.filter((s) => s.length < 100) }
)

const leaf: fc.Arbitrary<Junk> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  oddNumber,
  oddString,
  fc.constantFrom('sms', 'admin', 'user', 'single', 'multi', 'public', 'image', 'location', 'emoji', 'poll', 'unicode', 'enable', 'disable')
)

/** Nesting far beyond what any handler expects; the parser or validation must refuse it politely. */
const deepNesting: fc.Arbitrary<Junk> = fc
  .tuple(fc.constantFrom(64, 1000, 20_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`) : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)
  )

export const junkValue: fc.Arbitrary<Junk> = fc.letrec<{ value: Junk }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 5 }) },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(junkKey, tie('value')), { maxLength: 5 })
        .map((entries) => new JsonObject(entries))
    },
    { weight: 1, arbitrary: fc.array(fc.constant(1 as Junk), { minLength: 1000, maxLength: 5000 }) },
    { weight: 1, arbitrary: deepNesting }
  )
})).value

/** An object whose keys come mostly from the contract, one or two levels deep. */
export const plausibleObject: fc.Arbitrary<JsonObject> = fc
  .array(fc.tuple(junkKey, junkValue), { maxLength: 6 })
  .chain((inner) =>
    fc.oneof(
      fc.constant(new JsonObject(inner)),
      fc.constantFrom(...VOCABULARY).map((wrapper) => new JsonObject([[wrapper, new JsonObject(inner)]]))
    )
  )

// ── mutations of a valid body ────────────────────────────────────────────────────────────────

type Mutation =
  | { kind: 'replace'; at: number; value: Junk }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; at: number; key: string; value: Junk }
  | { kind: 'duplicate'; at: number }

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: junkValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.nat(), key: junkKey, value: junkValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }) }
)

/** Every node of a tree, root first, as a path of indexes (entry index for objects). */
function nodes(value: Junk, path: number[] = [], into: number[][] = []): number[][] {
  into.push(path)
  if (value instanceof JsonObject) value.entries.forEach(([, item], i) => nodes(item, [...path, i], into))
  else if (Array.isArray(value)) (value as readonly Junk[]).forEach((item, i) => nodes(item, [...path, i], into))
  return into
}

/** The tree with `change` applied to the node at `path` (copy on write). */
function update(value: Junk, path: readonly number[], change: (node: Junk) => Junk): Junk {
  if (path.length === 0) return change(value)
  const [head = 0, ...rest] = path
  if (value instanceof JsonObject) {
    return new JsonObject(value.entries.map(([key, item], i) => [key, i === head ? update(item, rest, change) : item] as const))
  }
  if (Array.isArray(value)) return (value as readonly Junk[]).map((item, i) => (i === head ? update(item, rest, change) : item))
  return value
}

export function mutate(body: Junk, mutations: readonly Mutation[]): Junk {
  let tree = body
  for (const m of mutations) {
    const all = nodes(tree)
    const path = all[m.at % all.length] ?? []
    switch (m.kind) {
      case 'replace':
        tree = update(tree, path, () => m.value)
        break
      case 'delete': {
        if (path.length === 0) break
        const parent = path.slice(0, -1)
        const index = path[path.length - 1] ?? 0
        tree = update(tree, parent, (node) => {
          if (node instanceof JsonObject) return new JsonObject(node.entries.filter((_, i) => i !== index))
          if (Array.isArray(node)) return (node as readonly Junk[]).filter((_, i) => i !== index)
          return node
        })
        break
      }
      case 'add':
        tree = update(tree, path, (node) => (node instanceof JsonObject ? new JsonObject([...node.entries, [m.key, m.value]]) : node))
        break
      case 'duplicate':
        tree = update(tree, path, (node) =>
          node instanceof JsonObject && node.entries.length > 0 ? new JsonObject([...node.entries, ...node.entries]) : node
        )
        break
    }
  }
  return tree
}

// ── bodies on the wire ───────────────────────────────────────────────────────────────────────

export interface WireBody {
  /** Absent: no Content-Type header at all. */
  contentType?: string
  bytes: Buffer
  /** A short description for failure reports (the bytes may be a megabyte). */
  label: string
}

/** A body that fast-check reports by its label, not as a megabyte of `Buffer.from([…])`. */
export function wireBody(contentType: string | undefined, bytes: Buffer, label: string): WireBody {
  const body: WireBody = { ...(contentType === undefined ? {} : { contentType }), bytes, label }
  Object.defineProperty(body, fc.toStringMethod, { value: () => `<${label}>`, enumerable: false })
  return body
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=latin1']

const jsonType = fc.constantFrom(...JSON_TYPES)

function summarize(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text
}

const asJson = (tree: Junk, contentType: string): WireBody => {
  const text = serialize(tree)
  return wireBody(contentType, Buffer.from(text, 'utf8'), `${contentType} ${summarize(text)}`)
}

const MALFORMED = [
  '{', '}', '{"message": ', '{"a":}', '{"a":1,}', '[1,2,', "{'a':1}", '{"a":1}{"b":2}', 'NaN', 'undefined', '{"a":01}',
  '{"a":"\\x41"}', '{"a":"\\ud800"}', '{"a":"\u0000"}', '\uFEFF{"a":1}', '/* c */ {"a":1}', '{"a":1} // c', '"unterminated',
  '{"\\u0000":1}', '[', 'nul', 'tru', '{"a":1e}', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'
]

/** A request body: none, JSON junk, a mutated valid body, malformed JSON, or the wrong kind of bytes. */
export function bodyArbitrary(seeds: readonly Junk[]): fc.Arbitrary<WireBody | null> {
  const options: { weight: number; arbitrary: fc.Arbitrary<WireBody | null> }[] = [
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: jsonType.map((contentType) => wireBody(contentType, Buffer.alloc(0), `${contentType} (empty)`)) },
    { weight: 4, arbitrary: fc.tuple(plausibleObject, jsonType).map(([tree, type]) => asJson(tree, type)) },
    { weight: 3, arbitrary: fc.tuple(junkValue, jsonType).map(([tree, type]) => asJson(tree, type)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...MALFORMED), jsonType)
        .map(([text, contentType]) => wireBody(contentType, Buffer.from(text, 'utf8'), `${contentType} ${text}`))
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.uint8Array({ maxLength: 64 }), jsonType)
        .map(([bytes, contentType]) => wireBody(contentType, Buffer.from(bytes), `${contentType} raw bytes ${Buffer.from(bytes).toString('hex')}`))
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.option(
            fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data; boundary=x',
              'image/png',
              'application/octet-stream',
              'application/json-patch+json',
              'application/jsonx',
              ';;;',
              'application/json, text/plain'
            ),
            { nil: undefined }
          ),
          fc.oneof(
            plausibleObject.map(serialize),
            fc.constantFrom('a=1&b=2', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', '\u0089PNG\r\n\u001a\n')
          )
        )
        .map(([contentType, text]) => wireBody(contentType, Buffer.from(text, 'utf8'), `${contentType ?? '(no content-type)'} ${summarize(text)}`))
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...VOCABULARY), jsonType).map(([key, type]) => asJson(new JsonObject([[key, ONE_MEGABYTE]]), type))
    }
  ]
  if (seeds.length > 0) {
    options.push({
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...seeds), fc.array(mutation, { maxLength: 3 }), jsonType)
        .map(([seed, mutations, type]) => asJson(mutate(seed, mutations), type))
    })
  }
  return fc.oneof(...options)
}

// ── URL pieces ───────────────────────────────────────────────────────────────────────────────

/** Percent-encodes every byte outside the unreserved set; lone surrogates become U+FFFD first. */
export function percentEncode(value: string): string {
  let out = ''
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** Already-encoded pieces that are malformed or decode to something odd. */
const RAW_URL_PIECES = ['%', '%Z', '%ZZ', '%00', '%C0%80', '%FF', '%ED%A0%80', '%2F', '%2B', '+', '..', '.', '%2e%2e', '1%00', ';x=1', '%25']

/** A path segment or query value, already URL-safe: encoded junk, digits, or malformed escapes. */
export const urlPiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: oddString.filter((s) => s.length < 300).map(percentEncode) },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '-1', '01', '1.5', '1e3', '99999999999999999999', '9007199254740993', 'abc', 'current', 'end', 'me', 'true', 'false') },
  { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_PIECES) },
  { weight: 1, arbitrary: fc.nat(4000).map((n) => '9'.repeat(n + 20)) }
)

/** Query parameter names the contract uses somewhere, and a few it never does. */
export const QUERY_KEYS = [
  'page', 'per_page', 'omit', 'limit', 'before_id', 'since_id', 'after_id', 'other_user_id', 'include_shared_groups',
  'include_blocked', 'since', 'user', 'otherUser', 'filter', 'period', 'continuation_token', 'to', 'acceptFiles', '__proto__',
  'constructor', 'x'
] as const
