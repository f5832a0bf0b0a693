// Polls in a group: each answer the service gives about a poll goes into the message flow, and a
// new poll's own message with it.
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import type { MessageFlow } from './message-flow'
import type { Polls } from './polls'

type PollChannel = Extract<keyof InvokeHandlers, `polls:${string}`>
export type PollHandlers = Pick<InvokeHandlers, PollChannel>

export function pollHandlers(context: FeatureContext, polls: Polls, flow: MessageFlow): PollHandlers {
  return {
    'polls:create': async ({ conversationId, poll }) => {
      context.conversation(conversationId)
      const created = await polls.create(conversationId, poll)
      flow.arrive(created.message, 'sent')
      flow.pollUpdated(created.poll)
      return created.poll
    },
    'polls:get': async ({ conversationId, pollId }) => {
      context.conversation(conversationId)
      const poll = await polls.get(conversationId, pollId)
      flow.pollUpdated(poll)
      return poll
    },
    'polls:vote': async ({ conversationId, pollId, optionIds }) => {
      context.conversation(conversationId)
      const poll = await polls.vote(conversationId, pollId, optionIds)
      flow.pollUpdated(poll)
      return poll
    },
    'polls:end': async ({ conversationId, pollId }) => {
      context.conversation(conversationId)
      const poll = await polls.end(conversationId, pollId)
      flow.pollUpdated(poll)
      return poll
    },
    'polls:list': async ({ conversationId, next }) => {
      context.conversation(conversationId)
      const page = await polls.list(conversationId, next)
      for (const poll of page.polls) flow.pollUpdated(poll)
      return page
    }
  }
}
