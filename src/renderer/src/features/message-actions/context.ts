// How a message row reaches the actions on it without every component between the pane and the
// row passing them on: the conversation pane provides them, `MessageItem` reads them. A row with
// no provider (a preview, a test of the history alone) draws no toolbar.
import { getContext, setContext } from 'svelte'
import type { Conversation } from '@shared/conversations'
import type { MessageActionsModel } from '$lib/state/message-actions.svelte'

export interface MessageActionsContext {
  meId: string
  /** The open conversation, once loaded: its kind, your role and its deletion mode decide what is offered. */
  conversation(): Conversation | null
  /** Who a user id is, for "who reacted"; "You" for the user. */
  nameOf(userId: string): string
  actions: MessageActionsModel
}

const KEY = Symbol('message-actions')

export function provideMessageActions(context: MessageActionsContext): void {
  setContext(KEY, context)
}

export function messageActionsContext(): MessageActionsContext | undefined {
  return getContext<MessageActionsContext | undefined>(KEY)
}
