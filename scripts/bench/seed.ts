// Seeding the history the later parts measure, over REST before Ada's app first signs in (every
// message sent while her app ran would reach it as a push): one long conversation, and many groups
// of Grace's with Ada in them.
import { seedHistory, seededText } from '../../tests/e2e/long-history'
import { epochNow } from './probes/records'
import type { ServiceClient } from './service-client'

/** The demo group that gets the long history. */
export const LONG_GROUP = 'Launch Team'

export interface SeedPlan {
  longMessages: number
  conversations: number
  messagesPerConversation: number
  /** Groups being filled at once; each group's messages go one after another, in order. */
  concurrency: number
}

/** The name of seeded group `index` (0-based): `Bench 001`, `Bench 002`, … */
export function seededGroupName(index: number): string {
  return `Bench ${String(index + 1).padStart(3, '0')}`
}

/** Message `index` of a seeded group: unique across groups, so a switch cannot match the last group's rows. */
export function seededGroupText(groupName: string, index: number): string {
  return `${groupName} · ${seededText(index)}`
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

export async function seed(client: ServiceClient, plan: SeedPlan): Promise<void> {
  const started = epochNow()
  if (plan.longMessages > 0) {
    // First: seedHistory finds the group on the first page of Grace's groups, which the groups below would fill.
    await seedHistory(client, LONG_GROUP, plan.longMessages, 'Grace')
    console.log(`seeded ${plan.longMessages} messages into ${LONG_GROUP} in ${((epochNow() - started) / 1000).toFixed(1)} s (16 sends at a time)`)
  }
  if (plan.conversations === 0) return
  const groupsStarted = epochNow()
  const graceToken = await client.restToken(client.account('Grace'), 'bench-seed')
  const adaId = await client.userId(await client.restToken(client.account('Ada'), 'bench-seed'))
  const names = Array.from({ length: plan.conversations }, (_, index) => seededGroupName(index))
  const groups: { name: string; id: string }[] = []
  await inParallel(names, plan.concurrency, async (name) => {
    groups.push({ name, id: await client.createGroup(graceToken, name, adaId) })
  })
  const total = plan.conversations * plan.messagesPerConversation
  let sent = 0
  let reported = 0
  await inParallel(groups, plan.concurrency, async ({ name, id }) => {
    for (let index = 0; index < plan.messagesPerConversation; index++) {
      await client.sendGroupMessage(graceToken, id, seededGroupText(name, index), `bench-seed-${id}-${index}`)
      sent += 1
      if (sent - reported >= total / 10) {
        reported = sent
        const seconds = (epochNow() - groupsStarted) / 1000
        console.log(`  ${sent} / ${total} messages (${(sent / seconds).toFixed(0)} a second)`)
      }
    }
  })
  const seconds = (epochNow() - groupsStarted) / 1000
  console.log(
    `seeded ${plan.conversations} groups of Grace's with Ada in them, ${plan.messagesPerConversation} messages each, in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} messages a second, ${plan.concurrency} groups at a time, each group's messages in order)`
  )
}
