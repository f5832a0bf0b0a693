// What the bench does on the service over REST, as any client would: tokens of its own for the
// demo accounts (another device id than the apps'), sends, and seeding many conversations fast.
import type { Page } from 'playwright-core'
import type { DemoAccount } from '../../server/src/index'
import { signInThroughScreens } from '../../tests/e2e/support'
import { ServiceRest } from '../../tests/support/service-rest'

export class ServiceClient extends ServiceRest {
  readonly #accounts: readonly DemoAccount[]

  constructor(origin: string, attestationSecret: string, accounts: readonly DemoAccount[]) {
    super(origin, { appId: 'bench', attestationSecret })
    this.#accounts = accounts
  }

  account(firstName: string): DemoAccount {
    const found = this.#accounts.find((candidate) => candidate.name.startsWith(`${firstName} `))
    if (!found) throw new Error(`no demo account ${firstName}`)
    return found
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

  /** G5 then MB2: a group of `owner`'s with `memberId` in it. */
  async createGroup(ownerToken: string, name: string, memberId: string): Promise<string> {
    const created = (await this.post('/v3/groups', { name }, { token: ownerToken, attest: true })) as { response: { id: string | number } }
    const groupId = String(created.response.id)
    await this.post(`/v3/groups/${groupId}/members/add`, { members: [{ user_id: memberId, nickname: 'Member' }] }, { token: ownerToken, attest: true })
    return groupId
  }

  /** Signs an app in through its own screens, with the SMS code read from the service's outbox. */
  signIn(page: Page, who: DemoAccount): Promise<void> {
    return signInThroughScreens(page, who, this)
  }
}
