// Shows the notifications the policy allows, one per conversation: a second message in the same
// conversation updates the first notification ("3 new messages in Book Club") instead of adding
// another, and reading the conversation takes it away.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Me } from '@shared/session'
import type { Settings } from '@shared/settings'
import { notificationFor, shouldNotify, type Happening, type NotifyContext } from './notify-policy'
import type { Notifier } from './ports'

export interface NotificationsDependencies {
  notifier: Notifier
  /** What the policy needs to know besides the happening itself. */
  situation(conversationId: ConversationId): Situation | null
  /** The user clicked a notification of this conversation. */
  open(conversationId: ConversationId): void
  /** The user answered in the notification (where the platform lets them). */
  reply(conversationId: ConversationId, text: string): void
}

export interface Situation {
  me: Me
  conversation: Conversation
  /** Your nickname in this group, when known: a mention of it reaches you too. */
  nickname: string | null
  lookingAt: ConversationId | null
  status: NotifyContext['status']
  globallyMuted: boolean
  settings: Settings
}

export class Notifications {
  readonly #deps: NotificationsDependencies
  /**
   * Per conversation shown, how many messages its notification stands for. A reaction shows
   * itself without counting, so a message after it is not told as "2 new messages".
   */
  readonly #unseen = new Map<ConversationId, number>()

  constructor(deps: NotificationsDependencies) {
    this.#deps = deps
  }

  /** Notifies of this, if the policy says so. */
  consider(happening: Happening): void {
    const conversationId = happening.kind === 'message' ? happening.message.conversationId : happening.conversationId
    const situation = this.#deps.situation(conversationId)
    if (situation === null) return
    const { me, conversation, settings } = situation
    const context: NotifyContext = {
      meId: me.id,
      myNames: situation.nickname === null ? [me.name] : [me.name, situation.nickname],
      lookingAt: situation.lookingAt,
      status: situation.status,
      globallyMuted: situation.globallyMuted,
      conversationMuted: conversation.mute !== null,
      enabled: settings.desktopNotifications
    }
    if (!shouldNotify(happening, context)) return
    const unseen = (this.#unseen.get(conversationId) ?? 0) + (happening.kind === 'message' ? 1 : 0)
    this.#unseen.set(conversationId, unseen)
    const { title, body } = notificationFor(happening, { conversationName: conversation.name, unseen, showMessageText: settings.showMessageText })
    this.#deps.notifier.show({
      key: conversationId,
      conversationId,
      title,
      body,
      silent: !settings.sound,
      onClick: () => {
        this.seen(conversationId)
        this.#deps.open(conversationId)
      },
      onReply: (text) => this.#deps.reply(conversationId, text)
    })
  }

  /** The user has seen this conversation: its notification is out of date. */
  seen(conversationId: ConversationId): void {
    if (!this.#unseen.delete(conversationId)) return
    this.#deps.notifier.close(conversationId)
  }

  /** Signed out: nothing shown belongs to anyone any more. */
  clear(): void {
    for (const conversationId of [...this.#unseen.keys()]) this.seen(conversationId)
  }
}
