import fc from 'fast-check'
import { JsonObject, junkValue, oddString, serialize, wireBody, type Junk, type WireBody } from './junk.js'

/** Junk for the push gateway's `POST /faye`: Bayeux messages with every field wrong in turn. */

export interface BayeuxTargets {
  /** Client ids the service knows (from real handshakes). */
  clientIds: string[]
  token: string
  userId: string
  groupId: string
  /** `/direct_message/<lo>_<hi>` of a real chat. */
  dmChannel: string
}

const META = ['/meta/handshake', '/meta/connect', '/meta/subscribe', '/meta/unsubscribe', '/meta/disconnect']

export function bayeuxBody(targets: BayeuxTargets): fc.Arbitrary<WireBody> {
  const realChannels = [`/user/${targets.userId}`, `/group/${targets.groupId}`, targets.dmChannel]
  const badChannels = ['/meta/nope', '/meta/', '/meta', '/user/*', '/**', '/*', '/groups/1', '/group/0', '/direct_message/2_1', '/direct_message/1+2', '/user/01', '/service/x', '', '/', 'user/1']
  const channel: fc.Arbitrary<Junk> = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...META) },
    { weight: 3, arbitrary: fc.constantFrom(...realChannels, ...badChannels) },
    { weight: 1, arbitrary: oddString },
    { weight: 1, arbitrary: junkValue }
  )
  const clientId: fc.Arbitrary<Junk> = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...targets.clientIds) },
    { weight: 1, arbitrary: oddString },
    { weight: 1, arbitrary: junkValue }
  )
  const now = (): number => Math.floor(Date.now() / 1000)
  const ext: fc.Arbitrary<Junk> = fc.oneof(
    fc.constant(null).map(() => new JsonObject([['access_token', targets.token], ['timestamp', now()]])),
    fc.tuple(fc.oneof(fc.constant<Junk>(targets.token), junkValue), fc.oneof(fc.constant<Junk>(now()), junkValue)).map(
      ([token, timestamp]) => new JsonObject([['access_token', token], ['timestamp', timestamp]])
    ),
    junkValue
  )
  const data: fc.Arbitrary<Junk> = fc.oneof(
    fc.constant(new JsonObject([['type', 'typing'], ['user_id', targets.userId], ['started', Date.now()]])),
    fc.constant(new JsonObject([['type', 'ping']])),
    junkValue
  )
  const fields: Record<string, fc.Arbitrary<Junk>> = {
    channel,
    clientId,
    id: fc.oneof(fc.nat().map(String), junkValue),
    version: fc.oneof(fc.constantFrom<Junk>('1.0', '1.1', '2.0', '0.9', ''), junkValue),
    supportedConnectionTypes: fc.oneof(
      fc.constantFrom<Junk>(['long-polling', 'websocket'], ['long-polling'], ['callback-polling'], []),
      junkValue
    ),
    // Not 'websocket' or 'callback-polling': over HTTP the gateway holds those connects the full 30 s.
    connectionType: fc.oneof(fc.constantFrom<Junk>('long-polling', 'in-process', 'eventsource', 'Long-Polling'), junkValue),
    subscription: fc.oneof(fc.constantFrom<Junk>(...realChannels, ...badChannels), fc.array(fc.constantFrom<Junk>(...realChannels)), junkValue),
    ext,
    data,
    advice: junkValue
  }
  const message: fc.Arbitrary<Junk> = fc
    .tuple(
      fc.subarray(Object.keys(fields), { minLength: 1 }),
      fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'x', 'authenticated'), junkValue), { maxLength: 2 })
    )
    .chain(([names, extra]) =>
      fc.tuple(...names.map((name) => (fields[name] ?? junkValue).map((value) => [name, value] as const))).map(
        (entries) => new JsonObject([...entries, ...extra])
      )
    )

  const json = (tree: Junk): WireBody => {
    const text = serialize(tree)
    return wireBody('application/json', Buffer.from(text, 'utf8'), text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text)
  }
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(message, { minLength: 1, maxLength: 6 }).map(json) },
    { weight: 2, arbitrary: message.map(json) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(message.filter((m) => serialize(m).length < 2000), fc.integer({ min: 500, max: 3000 }))
        .map(([m, n]) => json(Array.from({ length: n }, () => m)))
    },
    { weight: 2, arbitrary: junkValue.map(json) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', '[', '[{]', 'null', '{"channel":', '\uFEFF[]', '[{"channel":"/meta/handshake"}]]')
        .map((text) => wireBody('application/json', Buffer.from(text, 'utf8'), text))
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded')
        .map((contentType) => wireBody(contentType, Buffer.from('message=%5B%5D', 'utf8'), `${contentType} message=[]`))
    }
  )
}
