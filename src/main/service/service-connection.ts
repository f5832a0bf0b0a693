// Binds core to a real deployment: the REST client and the push connection, translated into the
// app's own shapes. Both composition roots build one and hand it to core; core itself knows only
// the ports it implements (core/ports.ts), never the api/ and push/ layers. Each area's gateway
// lives in a file of its own beside this one; this file only assembles them.
import { issuerOf, type IssuedToken, type TokenIssuer } from '@shared/token-issuer'
import { getGroup } from '../api/groups'
import { uploadPicture } from '../api/images'
import { downloadPicture } from '../api/picture-download'
import { getGroupMessage } from '../api/message-actions'
import { ServiceClient } from '../api/service-client'
import type { ServiceConfig } from '../api/service-config'
import { toMessage } from '../api/to-domain'
import { AppError } from '../core/app-error'
import type { ConnectionOwner, ServiceConnection, ServiceGateway } from '../core/ports'
import type { Log } from '../log/log'
import { conversationGateway, everyGroup } from './conversations'
import { groupGateway } from './groups'
import { messageGateway } from './messages'
import { peopleGateway } from './people'
import { pollGateway } from './polls'
import { profileGateway } from './profile'
import { LivePushFeed } from './push-feed'
import { securityGateway } from './security'
import { speakingCore } from './service-failures'
import { ServiceSettingsControl, type SavedServiceSettings } from './service-settings-control'
import { sessionGateway } from './session'

export interface ServiceConnectionOptions {
  /** The settings in force at start-up. */
  config: ServiceConfig
  log: Log
  /** Where Settings ▸ Service keeps what it saves; without it, saved settings last as long as the app. */
  saved?: SavedServiceSettings
  /** The variables that override saved settings, as start-up applied them. */
  environment?: Record<string, string | undefined>
}

export function connectToService({ config, log, saved, environment }: ServiceConnectionOptions): ServiceConnection {
  let owner: ConnectionOwner | null = null
  const attachedOwner = (): ConnectionOwner => {
    if (owner === null) throw new Error('The service connection was used before core attached to it.')
    return owner
  }
  const token = (): IssuedToken | null => owner?.token() ?? null
  const settings = new ServiceSettingsControl({
    initial: config,
    log,
    ...(saved === undefined ? {} : { saved }),
    ...(environment === undefined ? {} : { environment })
  })
  /** Where a request sent now goes: a token it brings back was issued there. */
  const issuerInForce = (): TokenIssuer => issuerOf(settings.config)
  const client = new ServiceClient({ config: () => settings.config, getToken: token })
  client.onUnauthorized(() => owner?.tokenRefused())
  client.onTokenElsewhere(() => owner?.tokenElsewhere())

  const requireMeId = (): string => {
    const me = owner?.me() ?? null
    if (me === null) throw new AppError('UNAUTHENTICATED', 'Please sign in first.')
    return me.id
  }

  const gateway: ServiceGateway = speakingCore({
    ...pollGateway({ client, meId: requireMeId, group: (groupId) => getGroup(client, groupId), now: Date.now }),
    ...groupGateway({ client, meId: requireMeId }),
    ...peopleGateway({ client, meId: requireMeId, groups: () => everyGroup(client) }),
    ...securityGateway(client, issuerInForce),
    ...profileGateway(client),
    ...sessionGateway(client, issuerInForce),
    ...conversationGateway({ client, meId: requireMeId }),
    ...messageGateway({ client, meId: requireMeId })
  })

  return {
    gateway,
    images: speakingCore({ uploadImage: (upload) => uploadPicture(client, upload), downloadPicture: (url) => downloadPicture(url) }),
    push: new LivePushFeed({
      config: () => settings.config,
      log,
      token,
      owner: attachedOwner,
      group: (groupId) => getGroup(client, groupId),
      groupMessage: async (groupId, messageId) => toMessage(await getGroupMessage(client, groupId, messageId), groupId)
    }),
    attach(newOwner) {
      if (owner !== null) throw new Error('A service connection serves one core.')
      owner = newOwner
    },
    settings
  }
}
