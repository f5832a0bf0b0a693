// The Add members dialog: the people picked, then MB2 and MB3 while the service adds them, then
// who was added and who could not be.
import type { AddMembersResult, MemberCandidate } from '@shared/groups'
import type { ConversationId } from '@shared/conversation-id'
import { MAX_MEMBERS_PER_ADD } from '@shared/limits'
import type { Person } from '@shared/people'
import { call, messageOf } from '$lib/main-process'
import { addressFromText, typedCandidate, type TypedAddress } from '$lib/typed-address'

export type PickedCandidate =
  | {
      /** Tells picks apart: a user's id, or what was typed. */
      key: string
      /** How the dialog names them. */
      label: string
      candidate: MemberCandidate
    }
  | {
      key: string
      label: string
      address: TypedAddress
      /** What the user calls them: their nickname in the group, asked for beside the address. */
      name: string
    }

export class AddMembersModel {
  readonly groupId: ConversationId
  picked = $state<PickedCandidate[]>([])
  status = $state<'picking' | 'adding' | 'done'>('picking')
  result = $state<AddMembersResult | null>(null)
  error = $state<string | null>(null)

  /** The accounts picked, left out of the people offered. */
  pickedUserIds: string[] = $derived(this.picked.flatMap((pick) => ('candidate' in pick && 'userId' in pick.candidate ? [pick.candidate.userId] : [])))

  constructor(groupId: ConversationId) {
    this.groupId = groupId
  }

  pickPerson(person: Person): void {
    this.#pick({ key: `user:${person.id}`, label: person.name, candidate: { nickname: person.name, userId: person.id } })
  }

  /** Picks a typed phone number or e-mail address; answers why not when it is neither. */
  pickTyped(text: string): string | null {
    const address = addressFromText(text)
    if (address === null) return `“${text.trim()}” is neither a phone number nor an e-mail address. Pick a person from the list, or type one of those.`
    this.#pick({ key: `typed:${text.trim().toLowerCase()}`, label: text.trim(), address, name: '' })
    return null
  }

  unpick(key: string): void {
    this.picked = this.picked.filter((pick) => pick.key !== key)
  }

  /** MB2 then MB3: resolves once the service has said who it added. */
  async add(): Promise<void> {
    if (this.picked.length === 0 || this.status === 'adding') return
    const unnamed = this.picked.find((pick) => 'address' in pick && pick.name.trim() === '')
    if (unnamed !== undefined) {
      this.error = `Give a name for ${unnamed.label}: it is what the group will call them.`
      return
    }
    this.status = 'adding'
    this.error = null
    try {
      const candidates = this.picked.map((pick) => ('address' in pick ? typedCandidate(pick.address, pick.name) : pick.candidate))
      this.result = await call('members:add', { groupId: this.groupId, candidates })
      this.picked = []
      this.status = 'done'
    } catch (error) {
      // Nobody was added: the picks stay, to try again.
      this.error = messageOf(error)
      this.status = 'picking'
    }
  }

  /** Back to picking, for another round. */
  again(): void {
    this.status = 'picking'
    this.result = null
    this.error = null
  }

  #pick(pick: PickedCandidate): void {
    this.error = null
    if (this.picked.some((other) => other.key === pick.key)) return
    if (this.picked.length >= MAX_MEMBERS_PER_ADD) {
      this.error = `At most ${MAX_MEMBERS_PER_ADD} people can be added at once.`
      return
    }
    this.picked = [...this.picked, pick]
  }
}
