// What the bench does on the service over REST, as any client would: tokens of its own for the
// demo accounts (another device id than the apps'), sends, and seeding many conversations fast.
import type { Page } from 'playwright-core'
import type { DemoAccount } from '../../server/src/index'
import { conversation, FIRST_GROUP } from '../../tests/e2e/support'

export class ServiceClient {
  readonly origin: string
  readonly #attestationSecret: string
  readonly #accounts: readonly DemoAccount[]

  constructor(origin: string, attestationSecret: string, accounts: readonly DemoAccount[]) {
    this.origin = origin
    this.#attestationSecret = attestationSecret
    this.#accounts = accounts
  }

  account(firstName: string): DemoAccount {
    const found = this.#accounts.find((candidate) => candidate.name.startsWith(`${firstName} `))
    if (!found) throw new Error(`no demo account ${firstName}`)
    return found
  }

  /** The full new-device sign-in over REST (L1, V2, V3, L1 with the code), under `deviceId`. */
  async restToken(who: DemoAccount, deviceId: string): Promise<string> {
    const login = { app_id: 'bench', grant_type: 'password', username: who.email, password: who.password, device_id: deviceId }
    const challenge = (await this.#post('/v2/access_tokens', login)) as { access_token?: string; verification?: { code: string } }
    if (challenge.access_token !== undefined) return challenge.access_token
    const code = challenge.verification?.code
    if (code === undefined) throw new Error(`L1 for ${who.email} answered neither a token nor a verification`)
    await this.#post(`/v3/verifications/${code}/initiate`, { verification: { method: 'sms' } })
    await this.#post(`/v3/verifications/${code}/confirm`, { verification: { pin: await this.lastSmsCode(who.phoneNumber) } })
    const granted = await this.#post('/v2/access_tokens', { ...login, verification: { code } })
    return (granted as { access_token: string }).access_token
  }

  async get<T>(path: string, token: string): Promise<T> {
    const url = new URL(path, this.origin)
    url.searchParams.set('token', token)
    const response = await fetch(url)
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }

  async userId(token: string): Promise<string> {
    const me = await this.get<{ response: { id: string | number } }>('/v3/users/me', token)
    return String(me.response.id)
  }

  /** Every group the token's user is in: id by name. */
  async groups(token: string): Promise<Map<string, string>> {
    const found = new Map<string, string>()
    for (let page = 1; ; page++) {
      const listed = await this.get<{ response: { id: string | number; name: string }[] }>(`/v3/groups?page=${page}&per_page=100&omit=memberships`, token)
      for (const group of listed.response) found.set(group.name, String(group.id))
      if (listed.response.length < 100) return found
    }
  }

  /** MS2; resolves once the service answered 201. */
  async send(token: string, groupId: string, text: string, sourceGuid: string): Promise<void> {
    const response = await fetch(new URL(`/v3/groups/${groupId}/messages`, this.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ message: { source_guid: sourceGuid, text } })
    })
    if (response.status !== 201) throw new Error(`MS2 into ${groupId}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }

  /** G5 then MB2: a group of `owner`'s with `memberId` in it. */
  async createGroup(ownerToken: string, name: string, memberId: string): Promise<string> {
    const created = (await this.#post('/v3/groups', { name }, { token: ownerToken, attest: true })) as { response: { id: string | number } }
    const groupId = String(created.response.id)
    await this.#post(`/v3/groups/${groupId}/members/add`, { members: [{ user_id: memberId, nickname: 'Member' }] }, { token: ownerToken, attest: true })
    return groupId
  }

  async lastSmsCode(phoneNumber: string): Promise<string> {
    const response = await fetch(new URL(`/dev/outbox?to=${encodeURIComponent(phoneNumber)}`, this.origin))
    const outbox = (await response.json()) as { text: string }[]
    const code = outbox.at(-1)?.text.match(/\d{6}/)?.[0]
    if (code === undefined) throw new Error(`no code was sent to ${phoneNumber}`)
    return code
  }

  /** Signs an app in through its own screens, with the SMS code read from the service's outbox. */
  async signIn(page: Page, who: DemoAccount): Promise<void> {
    await page.getByRole('textbox', { name: 'Username' }).fill(who.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(who.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const before = await this.lastSmsCode(who.phoneNumber).catch(() => null)
    await page.getByRole('button', { name: 'Send code' }).click()
    let code: string | null = null
    for (let attempt = 0; attempt < 100 && (code === null || code === before); attempt++) {
      await page.waitForTimeout(100)
      code = await this.lastSmsCode(who.phoneNumber).catch(() => null)
    }
    if (code === null) throw new Error(`no code was sent to ${who.phoneNumber}`)
    await page.getByRole('textbox', { name: 'Verification code' }).fill(code)
    await page.getByRole('button', { name: 'Verify' }).click()
    await conversation(page, FIRST_GROUP).waitFor()
  }

  async #post(path: string, body: unknown, options: { token?: string; attest?: boolean } = {}): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (options.token !== undefined) headers['x-access-token'] = options.token
    if (options.attest === true) headers['x-verify-token'] = this.#attestationSecret
    const response = await fetch(new URL(path, this.origin), { method: 'POST', headers, body: JSON.stringify(body) })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${text}`)
    return text === '' ? null : (JSON.parse(text) as unknown)
  }
}
