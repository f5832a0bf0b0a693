// Settings ▸ Service in core: show the settings, test them, save them. Saving moves the app to the
// deployment they name without a restart (the connection does that, behind its port); what core
// adds is the session: kept when the new deployment accepts its token, ended with a notice saying
// why when it refuses it, or when it is at another origin and so was never shown the token.
import type { InvokeHandlers } from '@shared/window-api'
import { SERVICE_SETTING_LABELS, serviceSettingsProblems, type ServiceSettingName } from '@shared/service-settings'
import { issuerOf, type IssuedToken, type TokenIssuer } from '@shared/token-issuer'
import { AppError } from './app-error'
import type { ServiceSettingsPort } from './ports'

export const NEW_SERVICE_REFUSED_SESSION_NOTICE = 'The service settings were saved, and that service does not know your session. Please sign in to it.'
export const NEW_SERVICE_SIGN_IN_NOTICE = 'The service settings were saved. Sign in to the new service.'

export interface ServiceSettingsDependencies {
  settings: ServiceSettingsPort
  /** The session's token, or null when nobody is signed in. */
  token(): IssuedToken | null
  /** Ends the session and shows `notice` on the sign-in screen. */
  endSession(notice: string): Promise<void>
  /** The session carries on at the same deployment, whose addresses are now these. */
  followIssuer(issuer: TokenIssuer): Promise<void>
  /** Push starts again, on the deployment now in force, if someone is signed in. */
  followAgain(): Promise<void>
}

type ServiceSettingsHandlers = Pick<InvokeHandlers, 'service:get' | 'service:test' | 'service:save'>

export function serviceSettingsHandlers({ settings, token, endSession, followIssuer, followAgain }: ServiceSettingsDependencies): ServiceSettingsHandlers {
  return {
    'service:get': async () => settings.current(),
    'service:test': ({ settings: tried }) => settings.test(tried),
    'service:save': async ({ settings: chosen }) => {
      // The screen checks each field as it is typed; this is for a renderer that did not.
      const [wrong] = Object.entries(serviceSettingsProblems(chosen)) as [ServiceSettingName, string][]
      if (wrong !== undefined) throw new AppError('VALIDATION', `${SERVICE_SETTING_LABELS[wrong[0]]}: ${wrong[1]}.`)
      const { view, session } = await settings.save(chosen, token())
      if (session === 'refused') await endSession(NEW_SERVICE_REFUSED_SESSION_NOTICE)
      else if (session === 'elsewhere') await endSession(NEW_SERVICE_SIGN_IN_NOTICE)
      else {
        await followIssuer(issuerOf(view.settings))
        await followAgain()
      }
      return view
    }
  }
}
