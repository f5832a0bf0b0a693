// A FeatureContext for unit tests of one feature module (groups, people): the parts a test gives,
// quiet defaults for the rest, and the session's parts refusing, since no such test reaches them.
import type { FeatureContext } from '../../src/main/core/feature-context'
import { Blocks } from '../../src/main/core/blocks'
import { ShareOrigins } from '../../src/main/core/share-origins'
import { MemoryPreferences, quietLog, RecordingEvents } from './memory-platform'

const notHere = (what: string) => (): Promise<never> => Promise.reject(new Error(`${what} are not part of these tests.`))

export function featureContext(parts: Pick<FeatureContext, 'gateway' | 'conversations' | 'me'> & Partial<FeatureContext>): FeatureContext {
  return {
    preferences: new MemoryPreferences(),
    events: new RecordingEvents(),
    blocks: new Blocks({
      blocked: async () => (await parts.gateway.blocks()).map((block) => block.userId),
      canMessage: async (userId) => (await parts.gateway.profile(userId)).canMessage,
      changed: () => undefined
    }),
    // Where the test's service says the user's contact link is, as a real session learns it.
    shareOrigins: new ShareOrigins({ contactLink: () => parts.gateway.contactLink() }),
    log: quietLog,
    conversation: (conversationId) => parts.conversations.listed(conversationId),
    refreshConversations: async () => [],
    now: Date.now,
    switchToken: notHere('Tokens'),
    meChanged: () => undefined,
    endSession: notHere('Sessions'),
    refusalMeans: notHere('Sessions'),
    ...parts
  }
}
