// Settings ▸ Service: the nine settings as the person edits them, each checked as it is typed
// against the same rule main applies; Test connection for what is typed (saved or not); Save,
// which main answers with the settings now in force.
import { pictureOrigins } from '@shared/picture-origins'
import {
  SERVICE_SETTING_NAMES,
  serviceSettingProblem,
  type AddressCheck,
  type ServiceSettingName,
  type ServiceSettings,
  type ServiceSettingsView
} from '@shared/service-settings'
import { call, messageOf } from '$lib/main-process'
import { reloadPage } from '$lib/page-reload'
import { Loadable } from '$lib/state/loadable.svelte'

const NONE: ServiceSettings = { baseUrl: '', v2Url: '', v4Url: '', imageServiceUrl: '', pictureOrigins: '', pushUrl: '', pushWsUrl: '', appId: '', verifyToken: '' }

export class ServiceSettingsModel {
  values = $state<ServiceSettings>({ ...NONE })
  /** The environment variable that decides each setting it overrides: that field is read-only. */
  overriddenBy = $state.raw<Partial<Record<ServiceSettingName, string>>>({})
  /** The settings main last said are in force; loaded when the tab opens, and again by Try again only. */
  readonly inForce = new Loadable<ServiceSettingsView | null>({
    initial: null,
    status: 'loading',
    fetch: () => call('service:get', {}),
    onLoaded: (view) => {
      if (view !== null) this.#show(view)
    },
    whenBack: null
  })

  /** What Test connection found, for the values it tested; cleared by the next edit. */
  checks = $state.raw<AddressCheck[] | null>(null)
  testing = $state(false)
  testError = $state<string | null>(null)

  saving = $state(false)
  saved = $state(false)
  saveError = $state<string | null>(null)

  /** Fields whose problem is shown: those edited, and all of them once Save was tried. */
  #judged = $state<Partial<Record<ServiceSettingName, true>>>({})

  /** What is wrong with each judged field, in words. */
  readonly problems = $derived.by(() => {
    const problems: Partial<Record<ServiceSettingName, string>> = {}
    for (const name of SERVICE_SETTING_NAMES) {
      if (this.#judged[name] !== true) continue
      const problem = serviceSettingProblem(name, this.values[name])
      if (problem !== null) problems[name] = sentence(problem)
    }
    return problems
  })

  isOverridden(name: ServiceSettingName): boolean {
    return this.overriddenBy[name] !== undefined
  }

  /** The person changed this field: its problem shows from now on, and earlier results no longer hold. */
  edited(name: ServiceSettingName): void {
    this.#judged[name] = true
    this.checks = null
    this.saved = false
  }

  async test(): Promise<void> {
    if (this.testing) return
    this.testing = true
    this.testError = null
    this.checks = null
    try {
      this.checks = await call('service:test', { settings: { ...this.values } })
    } catch (error) {
      this.testError = `The connection could not be tested. ${messageOf(error)}`
    } finally {
      this.testing = false
    }
  }

  /** Saves what is typed; answers the first field that is wrong (nothing is sent then), or null. */
  async save(): Promise<ServiceSettingName | null> {
    if (this.saving) return null
    for (const name of SERVICE_SETTING_NAMES) this.#judged[name] = true
    const wrong = SERVICE_SETTING_NAMES.find((name) => this.problems[name] !== undefined)
    if (wrong !== undefined) return wrong
    this.saving = true
    this.saved = false
    this.saveError = null
    try {
      const before = this.inForce.value?.settings ?? null
      const view = await call('service:save', { settings: { ...this.values } })
      this.#show(view)
      this.inForce.set(view)
      this.#judged = {}
      this.saved = true
      // The page's Content-Security-Policy, which names the origins pictures may load from, came
      // with the page and holds for as long as it does: only a page loaded again gets the new one.
      if (before !== null && !sameOrigins(pictureOrigins(before), pictureOrigins(view.settings))) reloadPage()
    } catch (error) {
      this.saveError = `The settings were not saved. ${messageOf(error)}`
    } finally {
      this.saving = false
    }
    return null
  }

  /** The settings in force in the fields, for the person to edit. */
  #show(view: ServiceSettingsView): void {
    this.values = { ...view.settings }
    this.overriddenBy = view.overriddenBy
  }
}

function sameOrigins(before: readonly string[], after: readonly string[]): boolean {
  return before.length === after.length && before.every((origin) => after.includes(origin))
}

/** The shared rule words its problems as clauses; the screen shows them as sentences (a scheme keeps its case). */
function sentence(problem: string): string {
  const start = /^[a-z]+:/.test(problem) ? problem : `${problem.charAt(0).toUpperCase()}${problem.slice(1)}`
  return `${start}.`
}
