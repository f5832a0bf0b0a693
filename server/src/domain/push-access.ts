import type { Core } from '../core.js'
import type { PushAuthority, PushChannel } from '../push/channels.js'
import { AccessTokens } from './access-tokens.js'
import { Accounts } from './accounts.js'
import { Memberships } from './memberships.js'

/** Who may use which push channel (§14.2), answered from the service's own state. */
export class PushAccess implements PushAuthority {
  readonly #core: Core

  constructor(core: Core) {
    this.#core = core
  }

  callerOf(token: unknown): { userId: number; tokenId: number } | null {
    if (typeof token !== 'string') return null
    const caller = this.#core.use(AccessTokens).authenticate(token)
    return caller === null ? null : { userId: caller.userId, tokenId: caller.tokenId }
  }

  tokenLive(tokenId: number): boolean {
    return this.#core.use(AccessTokens).isLive(tokenId)
  }

  mayUse(userId: number, channel: PushChannel): boolean {
    switch (channel.kind) {
      case 'user':
        return channel.userId === userId
      case 'group':
        return this.#core.use(Memberships).isMember(channel.groupId, userId)
      case 'direct_message': {
        const { first, second } = channel
        const accounts = this.#core.use(Accounts)
        return first < second && (userId === first || userId === second) && accounts.exists(first) && accounts.exists(second)
      }
    }
  }
}
