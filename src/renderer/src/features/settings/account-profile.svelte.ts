// Settings ▸ Account: the user's profile as they edit it (U1, U2). Save sends only what differs
// from what is saved; a refusal, the app's own or the service's, is kept at the field it is about
// until the user edits that field, and nothing typed is lost.
import type { Account, ProfileChanges, ProfileField } from '@shared/account'
import { profileProblems } from '@shared/profile-rules'
import { call, messageOf } from '$lib/main-process'
import { PictureChoice } from '$lib/state/picture-choice.svelte'
import { Loadable } from '$lib/state/loadable.svelte'

export type FieldProblems = Partial<Record<ProfileField, string>>

export class AccountProfileModel {
  /** The account as saved; one that could not be loaded for want of the service loads again once it is back. */
  readonly account = new Loadable<Account | null>({
    initial: null,
    status: 'loading',
    fetch: () => call('account:get', {}),
    onLoaded: (account) => {
      if (account !== null) this.#show(account)
    },
    describe: (error) => `Your profile could not be loaded. ${messageOf(error)}`,
    whenBack: () => void this.load()
  })
  /** Why the last save failed without naming a field. */
  saveError = $state<string | null>(null)
  name = $state('')
  email = $state('')
  bio = $state('')
  /** The avatar being chosen: uploaded through I1 as soon as it is picked, as a group's picture is. */
  readonly avatar = new PictureChoice()
  problems = $state<FieldProblems>({})
  saving = $state(false)
  /** The last save went through, and nothing was edited since. */
  saved = $state(false)

  async load(): Promise<void> {
    this.saveError = null
    await this.account.load()
  }

  /** The user typed in a field: its old refusal no longer applies. */
  edited(field: ProfileField): void {
    this.saved = false
    if (this.problems[field] === undefined) return
    const { [field]: _solved, ...others } = this.problems
    this.problems = others
  }

  /** Saves what changed; answers the first field refused, for focus to go to, or null. */
  async save(): Promise<ProfileField | null> {
    const account = this.account.value
    if (account === null || this.saving) return null
    this.saveError = null
    const changes = this.#changesFrom(account)
    const problems: FieldProblems = profileProblems(changes)
    if (!this.avatar.ready) problems.avatar = 'Wait until the picture has uploaded, then save.'
    this.problems = problems
    const first = firstField(problems)
    if (first !== null) return first
    this.saving = true
    try {
      const result = await call('account:updateProfile', { changes })
      if (result.status === 'invalid') {
        this.problems = { [result.field]: result.message }
        return result.field
      }
      this.account.set(result.account)
      this.#show(result.account)
      this.saved = true
      return null
    } catch (error) {
      this.saveError = `Your profile was not saved. ${messageOf(error)}`
      return null
    } finally {
      this.saving = false
    }
  }

  /** Forgets a picture chosen and not saved, for the model to be dropped. */
  dispose(): void {
    this.avatar.reset(null)
  }

  #changesFrom(account: Account): ProfileChanges {
    const changes: ProfileChanges = {}
    if (this.name.trim() !== account.name) changes.name = this.name
    if (this.email.trim() !== (account.email ?? '')) changes.email = this.email
    if (this.bio !== account.bio) changes.bio = this.bio
    if (this.avatar.changed && this.avatar.url !== account.avatarUrl) changes.avatarUrl = this.avatar.url
    return changes
  }

  /** The saved account in the fields, for the user to edit. */
  #show(account: Account): void {
    this.name = account.name
    this.email = account.email ?? ''
    this.bio = account.bio
    this.avatar.reset(account.avatarUrl)
    this.problems = {}
  }
}

const FIELD_ORDER: readonly ProfileField[] = ['avatar', 'name', 'email', 'bio']

function firstField(problems: FieldProblems): ProfileField | null {
  return FIELD_ORDER.find((field) => problems[field] !== undefined) ?? null
}
