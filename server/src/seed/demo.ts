import type { Core } from '../core.js'
import { Accounts, type Account } from '../domain/accounts.js'
import { chatIdOf } from '../domain/chats.js'
import type { GroupRow } from '../domain/group-row.js'
import { Groups } from '../domain/groups.js'
import { Memberships } from '../domain/memberships.js'
import { MessageIds } from '../domain/message-ids.js'
import { MessageStore, type NewMessageRow, type SystemEvent } from '../domain/message-store.js'
import { sha256 } from '../domain/secrets.js'
import { seededRandom } from './prng.js'

/**
 * `--seed demo`: four accounts, three groups with a few hundred messages over the past five days
 * (varied senders, a few system messages), and one DM chat. Deterministic apart from the
 * timestamps, which are relative to now. Accounts have phones (so the SMS PIN flow works) and no
 * known devices (so each sign-in is challenged, as for any new device). Seeding an already
 * seeded database changes nothing.
 */

export interface DemoAccount {
  name: string
  email: string
  phoneNumber: string
  password: string
}

const SEEDED_KEY = 'seed_demo'

/** Who `--seed demo` signs up: also what tools outside the service (tests, benchmarks) sign in as. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { name: 'Ada Lovelace', email: 'ada@demo.test', phoneNumber: '+1 5550100001', password: 'ada-demo-pass' },
  { name: 'Grace Hopper', email: 'grace@demo.test', phoneNumber: '+1 5550100002', password: 'grace-demo-pass' },
  { name: 'Alan Turing', email: 'alan@demo.test', phoneNumber: '+44 7700900003', password: 'alan-demo-pass' },
  { name: 'Katherine Johnson', email: 'katherine@demo.test', phoneNumber: '+1 5550100004', password: 'katherine-demo-pass' }
]

interface GroupPlan {
  name: string
  description: string
  /** Indexes into DEMO_ACCOUNTS; the first is the owner. */
  members: number[]
  count: number
  lines: string[]
}

const GROUPS: GroupPlan[] = [
  {
    name: 'Weekend Hikers',
    description: 'Trails, weather and who brings the snacks',
    members: [0, 1, 2, 3],
    count: 140,
    lines: [
      'Anyone up for the ridge trail on Saturday?',
      'Forecast says sun until 3, then showers.',
      'I can drive, there is room for three.',
      'Bringing trail mix and the good chocolate.',
      'Meet at the north parking lot at 8?',
      'My boots finally arrived!',
      'That view from the summit last time though.',
      'Count me in, but I need to be back by 5.',
      'Does someone have a spare headlamp?',
      'The lake loop is closed for repairs this week.',
      'Photos from today are in the shared album.',
      'Who is keeping track of the mileage?',
      'Let us try the waterfall route next.',
      'Sorry, running ten minutes late.',
      'Great hike everyone, same time next week?'
    ]
  },
  {
    name: 'Book Club',
    description: 'One book a month, opinions always',
    members: [0, 1, 3],
    count: 110,
    lines: [
      'Finished chapter twelve, no spoilers please.',
      'The ending felt rushed to me.',
      'Next pick: something shorter, maybe?',
      'I loved the letters between the two sisters.',
      'Is the audiobook any good?',
      'Meeting at my place on Thursday, I will make tea.',
      'The library has two copies left.',
      'That twist in part two!',
      'I am only halfway, do not judge me.',
      'Can we vote on the next book by Friday?',
      'The author is giving a talk downtown next month.',
      'Favourite quote so far: "We are all made of stories."'
    ]
  },
  {
    name: 'Launch Team',
    description: 'Release coordination',
    members: [1, 0, 2, 3],
    count: 160,
    lines: [
      'Build 42 is green, shipping to staging.',
      'Release notes draft is in the doc.',
      'Can someone review the migration PR?',
      'QA found a regression in the settings screen.',
      'Fixed, new build on its way.',
      'Standup moved to 10:30 today.',
      'Metrics look healthy after the rollout.',
      'We should add a test for that edge case.',
      'Who is on call this weekend?',
      'Rolling back the feature flag for now.',
      'Docs updated with the new endpoints.',
      'Green across the board, nice work team.',
      'Customer feedback on the beta is very positive.',
      'Blocking issue: certificates expire on Monday.'
    ]
  }
]

const DM_LINES = [
  'Are you coming to the hike?',
  'Yes! Did you finish the book?',
  'Almost, two chapters left.',
  'No spoilers then :)',
  'Want to grab coffee before the meeting?',
  'Sure, 9:15 at the usual place?',
  'Perfect, see you there.',
  'Running a bit late, order me a flat white?',
  'Done. Table by the window.',
  'Thanks, you are the best.'
]

interface Planned {
  atMs: number
  insert: (id: string, atSeconds: number) => void
}

export async function seedDemo(core: Core): Promise<DemoAccount[]> {
  if (core.meta.get(SEEDED_KEY) !== undefined) return [...DEMO_ACCOUNTS]
  const accounts = core.use(Accounts)
  const created: Account[] = []
  for (const plan of DEMO_ACCOUNTS) {
    created.push(accounts.byEmail(plan.email) ?? (await accounts.create({ name: plan.name, email: plan.email, phoneNumber: plan.phoneNumber, password: plan.password })))
  }
  const account = (index: number): Account => {
    const found = created[index]
    if (found === undefined) throw new Error(`no demo account ${index}`)
    return found
  }

  const random = seededRandom(20240601)
  const nowMs = core.clock.nowMs()
  const startMs = nowMs - 5 * 86_400_000
  const messages = core.use(MessageStore)
  const planned: Planned[] = []
  const backdate = core.db.prepare('UPDATE groups SET created_at = ?, updated_at = ? WHERE id = ?')
  const backdateMembers = core.db.prepare('UPDATE memberships SET created_at = ?, state_changed_at = ? WHERE group_id = ?')

  core.transaction(() => {
    GROUPS.forEach((plan, groupIndex) => {
      const owner = account(plan.members[0] ?? 0)
      const group: GroupRow = core.use(Groups).create(owner, { name: plan.name, description: plan.description })
      const createdAtMs = startMs + groupIndex * 3_600_000
      const createdAt = Math.floor(createdAtMs / 1000)
      const others = plan.members.slice(1).map(account)
      for (const member of others) core.use(Memberships).activate(group.id, member.id, member.name.split(' ')[0] ?? member.name)
      backdate.run(createdAt, createdAt, group.id)
      backdateMembers.run(createdAt, createdAt, group.id)

      const added: SystemEvent = {
        type: 'membership.announce.added',
        data: {
          added_users: others.map((member) => ({ id: String(member.id), nickname: member.name.split(' ')[0] })),
          adder_user: { id: String(owner.id), nickname: owner.name }
        }
      }
      planned.push({
        atMs: createdAtMs + 1000,
        insert: (id, at) => messages.insert(systemRow(id, group.id, at, `${owner.name} added ${others.map((m) => m.name).join(', ')} to the group`, added))
      })

      const span = nowMs - 600_000 - (createdAtMs + 60_000)
      const times = Array.from({ length: plan.count }, () => createdAtMs + 60_000 + Math.floor(random() * span)).sort((a, b) => a - b)
      times.forEach((atMs, index) => {
        const senderIndex = plan.members[Math.floor(random() * plan.members.length)] ?? 0
        const sender = account(senderIndex)
        const line = plan.lines[Math.floor(random() * plan.lines.length)] ?? ''
        const nickname = senderIndex === (plan.members[0] ?? 0) ? sender.name : (sender.name.split(' ')[0] ?? sender.name)
        planned.push({
          atMs,
          insert: (id, at) =>
            messages.insert({
              id,
              group_id: group.id,
              chat_id: null,
              recipient_id: null,
              sender_id: String(sender.id),
              sender_type: 'user',
              name: nickname,
              avatar_url: null,
              text: line,
              attachments: index % 37 === 5 ? JSON.stringify([{ type: 'location', lat: '47.3769', lng: '8.5417', name: 'Trailhead' }]) : '[]',
              source_guid: `demo-${groupIndex}-${index}`,
              event: null,
              created_at: at
            })
        })
      })
    })

    // One DM chat between Ada and Grace, during the last two days.
    const [ada, grace] = [account(0), account(1)]
    const chatId = chatIdOf(ada.id, grace.id)
    const dmTimes = DM_LINES.map((_, i) => nowMs - 2 * 86_400_000 + i * 1_800_000 + Math.floor(random() * 600_000))
    core.db
      .prepare('INSERT INTO chats (id, user_lo, user_hi, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(chatId, Math.min(ada.id, grace.id), Math.max(ada.id, grace.id), Math.floor((dmTimes[0] ?? nowMs) / 1000), Math.floor((dmTimes.at(-1) ?? nowMs) / 1000))
    DM_LINES.forEach((line, i) => {
      const [from, to] = i % 2 === 0 ? [ada, grace] : [grace, ada]
      planned.push({
        atMs: dmTimes[i] ?? nowMs,
        insert: (id, at) =>
          messages.insert({
            id,
            group_id: null,
            chat_id: chatId,
            recipient_id: to.id,
            sender_id: String(from.id),
            sender_type: 'user',
            name: from.name,
            avatar_url: null,
            text: line,
            attachments: '[]',
            source_guid: `demo-dm-${i}`,
            event: null,
            created_at: at
          })
      })
    })

    // Ids follow creation time, so everything is inserted in time order.
    const ids = core.use(MessageIds)
    planned.sort((a, b) => a.atMs - b.atMs)
    for (const item of planned) item.insert(ids.nextAt(item.atMs), Math.floor(item.atMs / 1000))
    core.meta.set(SEEDED_KEY, String(Math.floor(nowMs / 1000)))
  })
  return [...DEMO_ACCOUNTS]
}

function systemRow(id: string, groupId: number, at: number, text: string, event: SystemEvent): NewMessageRow {
  return {
    id,
    group_id: groupId,
    chat_id: null,
    recipient_id: null,
    sender_id: 'system',
    sender_type: 'system',
    name: 'System',
    avatar_url: null,
    text,
    attachments: '[]',
    source_guid: sha256(`demo-system-${groupId}`).slice(0, 32),
    event: JSON.stringify(event),
    created_at: at
  }
}
