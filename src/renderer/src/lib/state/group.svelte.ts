// One group as its Group settings dialog and Members panel show it: its details (G4), the changes
// the user makes to it, and what only managers see (join requests, former members). Every change
// shows only once the service has agreed to it: a refusal leaves the screen as it was, with why.
import { canManage, canSeeRoster } from '@shared/group-rules'
import type { FormerMember, GroupChanges, GroupDetails, JoinRequest } from '@shared/groups'
import type { ConversationId } from '@shared/conversation-id'
import { call, messageOf } from '../main-process'
import { Loadable } from './loadable.svelte'

export class GroupModel {
  readonly groupId: ConversationId
  /**
   * Its details (G4). A change shows what the service answered to it, which a slower load started
   * before it cannot overwrite; details that could not be read for want of the service are read
   * again once it is back, with all the rest.
   */
  readonly details: Loadable<GroupDetails | null> = new Loadable<GroupDetails | null>({
    initial: null,
    fetch: () => call('groups:get', { groupId: this.groupId }),
    whenBack: () => void this.load()
  })
  /** Why the last change from Group settings was refused. */
  settingsError = $state<string | null>(null)
  /** Why the last change from the Members panel was refused. */
  membersError = $state<string | null>(null)
  /** Requests to join, oldest first; loaded for managers only. */
  joinRequests = $state<JoinRequest[]>([])
  /** Who left, was removed or banned; loaded for admins only. */
  formerMembers = $state<FormerMember[]>([])
  /** A change is on its way: its controls wait. */
  busy = $state(false)

  /** The user may change settings and the roster. */
  manages = $derived(this.details.value !== null && canManage(this.details.value.type, this.details.value.myRole))
  seesRoster = $derived(this.details.value !== null && canSeeRoster(this.details.value.myRole))

  constructor(groupId: ConversationId) {
    this.groupId = groupId
  }

  /** Nothing shows the group any more: nothing is read again. */
  stop(): void {
    this.details.stop()
  }

  /** Loads the details, then what the user's role lets them see besides. */
  async load(): Promise<void> {
    if (await this.loadDetails()) await Promise.all([this.#loadJoinRequests(), this.#loadFormerMembers()])
  }

  /** G4 alone, behind the details already shown; resolves whether the details are in. */
  loadDetails(): Promise<boolean> {
    return this.details.refresh()
  }

  /** G6; resolves whether the service took the changes. */
  async update(changes: GroupChanges): Promise<boolean> {
    return this.#settings(async () => {
      this.#setDetails(await call('groups:update', { groupId: this.groupId, changes }))
    })
  }

  async transferOwnership(userId: string): Promise<boolean> {
    return this.#settings(async () => {
      this.#setDetails(await call('groups:transferOwnership', { groupId: this.groupId, userId }))
    })
  }

  async destroy(): Promise<boolean> {
    return this.#settings(() => call('groups:destroy', { groupId: this.groupId }))
  }

  async leave(): Promise<boolean> {
    return this.#settings(() => call('groups:leave', { groupId: this.groupId }))
  }

  async setNickname(nickname: string): Promise<boolean> {
    return this.#members(async () => {
      this.#setDetails(await call('members:setNickname', { groupId: this.groupId, nickname }))
    })
  }

  async remove(membershipId: string): Promise<boolean> {
    return this.#members(async () => {
      this.#setDetails(await call('members:remove', { groupId: this.groupId, membershipId }))
      await this.#loadFormerMembers()
    })
  }

  async setRole(membershipId: string, role: 'admin' | 'user'): Promise<boolean> {
    return this.#members(async () => {
      this.#setDetails(await call('members:setRole', { groupId: this.groupId, membershipId, role }))
    })
  }

  /** MB7 on someone who left; main removes a current member instead (MB4), who then leaves the members. */
  async ban(membershipId: string): Promise<boolean> {
    const current = this.details.value?.members.some((member) => member.membershipId === membershipId) ?? false
    return this.#members(async () => {
      this.formerMembers = await call('members:ban', { groupId: this.groupId, membershipId })
      if (current) this.#setDetails(await call('groups:get', { groupId: this.groupId }))
    })
  }

  /** MB6; an approved request makes a member, so the members are read again. */
  async decide(membershipId: string, approve: boolean): Promise<boolean> {
    return this.#members(async () => {
      this.joinRequests = await call('members:decide', { groupId: this.groupId, membershipId, approve })
      if (approve) this.#setDetails(await call('groups:get', { groupId: this.groupId }))
    })
  }

  #setDetails(details: GroupDetails): void {
    this.details.set(details)
  }

  async #loadJoinRequests(): Promise<void> {
    if (!this.manages) {
      this.joinRequests = []
      return
    }
    try {
      this.joinRequests = await call('members:joinRequests', { groupId: this.groupId })
    } catch (error) {
      this.membersError = `Join requests could not be loaded. ${messageOf(error)}`
    }
  }

  async #loadFormerMembers(): Promise<void> {
    if (!this.seesRoster) {
      this.formerMembers = []
      return
    }
    try {
      this.formerMembers = await call('members:former', { groupId: this.groupId })
    } catch (error) {
      this.membersError = `Former members could not be loaded. ${messageOf(error)}`
    }
  }

  async #settings(change: () => Promise<unknown>): Promise<boolean> {
    const failure = await this.#run(change)
    this.settingsError = failure
    return failure === null
  }

  async #members(change: () => Promise<unknown>): Promise<boolean> {
    const failure = await this.#run(change)
    this.membersError = failure
    return failure === null
  }

  /** Runs one change at a time; answers why it failed, or null. */
  async #run(change: () => Promise<unknown>): Promise<string | null> {
    if (this.busy) return 'Another change is still on its way. Try again in a moment.'
    this.busy = true
    try {
      await change()
      return null
    } catch (error) {
      return messageOf(error)
    } finally {
      this.busy = false
    }
  }
}
