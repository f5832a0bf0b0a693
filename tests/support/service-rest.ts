// The local service's REST interface as tests and benchmarks reach it from outside the app, as any
// client would: a person's own token (under another device id than the app's, so the app's
// session is left alone), reads and writes with it, and the texts the service "sent" (/dev/outbox).
import type { DemoAccount } from '../../server/src/index'

export interface ServiceRestOptions {
  /** The app id its sign-ins carry. */
  appId: string
  /** The attestation value (§2.3), for the operations that need it. */
  attestationSecret?: string
}

export class ServiceRest {
  readonly origin: string
  readonly #appId: string
  readonly #attestationSecret: string | undefined

  constructor(origin: string, options: ServiceRestOptions) {
    this.origin = origin
    this.#appId = options.appId
    this.#attestationSecret = options.attestationSecret
  }

  /** The full new-device sign-in over REST (L1, V2, V3, L1 with the code), under `deviceId`. */
  async restToken(who: DemoAccount, deviceId: string): Promise<string> {
    const login = { app_id: this.#appId, grant_type: 'password', username: who.email, password: who.password, device_id: deviceId }
    const challenge = (await this.post('/v2/access_tokens', login)) as { access_token?: string; verification?: { code: string } }
    if (challenge.access_token !== undefined) return challenge.access_token
    const code = challenge.verification?.code
    if (code === undefined) throw new Error(`L1 for ${who.email} answered neither a token nor a verification`)
    await this.post(`/v3/verifications/${code}/initiate`, { verification: { method: 'sms' } })
    await this.post(`/v3/verifications/${code}/confirm`, { verification: { pin: await this.lastSmsCode(who.phoneNumber) } })
    const granted = await this.post('/v2/access_tokens', { ...login, verification: { code } })
    return (granted as { access_token: string }).access_token
  }

  /** A GET with a token, its JSON answer as `T` (checked by the caller). */
  async get<T>(path: string, token: string): Promise<T> {
    const url = new URL(path, this.origin)
    url.searchParams.set('token', token)
    const response = await fetch(url)
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }

  /** A POST of JSON; throws unless the service answered 2xx. */
  async post(path: string, body: unknown, options: { token?: string; attest?: boolean } = {}): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (options.token !== undefined) headers['x-access-token'] = options.token
    if (options.attest === true) {
      if (this.#attestationSecret === undefined) throw new Error(`POST ${path} needs the attestation value, which this client was not given`)
      headers['x-verify-token'] = this.#attestationSecret
    }
    const response = await fetch(new URL(path, this.origin), { method: 'POST', headers, body: JSON.stringify(body) })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${text}`)
    return text === '' ? null : (JSON.parse(text) as unknown)
  }

  /** MS2 as the token's user, under `sourceGuid`; throws unless the service stored it (201). */
  async sendGroupMessage(token: string, groupId: string, text: string, sourceGuid: string): Promise<void> {
    const response = await fetch(new URL(`/v3/groups/${groupId}/messages`, this.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ message: { source_guid: sourceGuid, text } })
    })
    if (response.status !== 201) throw new Error(`MS2 into ${groupId}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }

  async lastSmsCode(phoneNumber: string): Promise<string> {
    const code = (await this.#smsTo(phoneNumber)).at(-1)?.text.match(/\d{6}/)?.[0]
    if (code === undefined) throw new Error(`no code was sent to ${phoneNumber}`)
    return code
  }

  /** How many texts the service has sent to the number so far. */
  async smsCount(phoneNumber: string): Promise<number> {
    return (await this.#smsTo(phoneNumber)).length
  }

  /**
   * The code of the next text to the number after `sentBefore` texts (from `smsCount`): a code
   * sent earlier, for another sign-in, is no use and must not be read in its place.
   */
  async nextSmsCode(phoneNumber: string, sentBefore: number, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    while ((await this.smsCount(phoneNumber)) <= sentBefore) {
      if (Date.now() > deadline) throw new Error(`no new code was sent to ${phoneNumber} within ${timeoutMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return this.lastSmsCode(phoneNumber)
  }

  async #smsTo(phoneNumber: string): Promise<{ text: string }[]> {
    const response = await fetch(new URL(`/dev/outbox?to=${encodeURIComponent(phoneNumber)}`, this.origin))
    return (await response.json()) as { text: string }[]
  }
}
