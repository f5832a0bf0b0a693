// The group settings decoder and its mapping against recorded groups of the real service (numeric
// ids, extra keys, settings left out) and against the shapes §15.4 gives members and requests.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { RECORDED } from '../../../tests/fixtures/recorded/manifest'
import { addResults, joinAnswer, wireGroupDetails, wirePendingMembership } from './group-decoders'
import { toGroupDetails, toJoinRequest } from './group-to-domain'

const folder = fileURLToPath(new URL('../../../tests/fixtures/recorded', import.meta.url))

function recordedGroups(): { file: string; payload: unknown }[] {
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((directory) => readdirSync(join(folder, directory.name)).map((name) => `${directory.name}/${name}`))
  return files.flatMap((file) =>
    RECORDED.filter((entry) => entry.kind === 'group' && entry.match.test(file)).flatMap((entry) =>
      entry.pick(JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>).map((payload) => ({ file, payload }))
    )
  )
}

describe('group details from recorded groups', () => {
  const groups = recordedGroups()

  it('decodes every recorded group, and shows the settings of those whose owner is among the members', () => {
    expect(groups.length).toBeGreaterThan(2)
    for (const { file, payload } of groups) {
      const decoded = wireGroupDetails.safeParse(payload)
      expect(decoded.success ? null : decoded.error, file).toBeNull()
      if (!decoded.success) continue
      const owner = decoded.data.creator_user_id
      const details = toGroupDetails(decoded.data, owner)
      if (details === null) continue
      expect(details, file).toMatchObject({ id: decoded.data.id, ownerId: owner, myRole: 'owner' })
      expect(details.type, file).toMatch(/^(private|closed|announcement)$/)
    }
  })

  it('reads no join question while approval is off, whatever text the group keeps', () => {
    const group = {
      id: '5',
      name: 'Lunch',
      creator_user_id: '1',
      requires_approval: false,
      show_join_question: true,
      join_question: { type: 'join_reason/questions/text', text: 'Why?' },
      members: [{ id: '9', user_id: '1', nickname: 'Ada', name: 'Ada', image_url: null, muted: false, roles: ['admin', 'owner'] }, { broken: true }]
    }
    const details = toGroupDetails(wireGroupDetails.parse(group), '1')
    expect(details).toMatchObject({ requiresApproval: false, joinQuestion: null, myMembershipId: '9', deletionMode: ['admin', 'sender'] })
    expect(details?.members).toHaveLength(1)
    expect(toGroupDetails(wireGroupDetails.parse({ ...group, requires_approval: true }), '1')?.joinQuestion).toBe('Why?')
    expect(toGroupDetails(wireGroupDetails.parse(group), '2')).toBeNull()
  })
})

describe('join answers, requests and add results (§15.4)', () => {
  const pending = {
    id: '12',
    user_id: '3',
    nickname: 'Bea',
    image_url: null,
    timestamp: 1_700_000_000,
    state: 'requested_pending',
    reason: {
      type: 'join_reason/membership_join_reason',
      question: { type: 'join_reason/questions/text', text: 'Why?' },
      answer: { type: 'join_reason/answers/text', response: 'Books' },
      method: 'share_link'
    }
  }

  it('tells a joined group from a request waiting for approval', () => {
    expect(joinAnswer.parse({ group: { id: '5', name: 'Lunch', creator_user_id: '1', members: [] } })).toMatchObject({ kind: 'joined', group: { id: '5' } })
    const asked = joinAnswer.parse({ membership: pending })
    expect(asked.kind).toBe('pending')
    expect(toJoinRequest(wirePendingMembership.parse(pending))).toEqual({
      membershipId: '12',
      userId: '3',
      name: 'Bea',
      avatarUrl: null,
      requestedAt: 1_700_000_000,
      question: 'Why?',
      answer: 'Books'
    })
    expect(toJoinRequest(wirePendingMembership.parse({ ...pending, reason: { question: null, answer: null } }))).toMatchObject({ question: null, answer: null })
  })

  it('keeps each added member’s guid', () => {
    const [added] = addResults.parse({
      members: [{ id: '20', user_id: '4', nickname: 'Cy', name: 'Cy', image_url: null, muted: false, roles: ['user'], app_installed: true, guid: 'ABC' }]
    })
    expect(added).toMatchObject({ id: '20', user_id: '4', guid: 'ABC' })
  })
})
