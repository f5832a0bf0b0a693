import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { badRequest, forbidden, notFound } from '../http/errors.js'
import type { Account } from './accounts.js'
import { Conversations } from './conversations.js'
import { Groups, type VisibleGroup } from './groups.js'
import { Memberships } from './memberships.js'
import { MessageIds } from './message-ids.js'
import { MessageShapes, type MessageJson } from './message-shapes.js'
import { MessageStore } from './message-store.js'
import { randomHex } from './secrets.js'
import { SystemMessages } from './system-messages.js'

/**
 * Polls (§13): creation with its poll message (PL1), votes (PL3, PL4), ending (PL5) and expiry,
 * the poll list (PL6), and the §15.6 shape. However a poll ends, exactly one `poll.finished`
 * system message is posted: at once for PL5; for an expiry by a timer set for the next expiration
 * (within 1 s), or right after a `/dev/clock` jump (`Clock.onJump`), or at startup for polls that
 * expired while the service was down.
 */

export type PollType = 'single' | 'multi'
export type PollVisibility = 'anonymous' | 'public'

export interface NewPoll {
  subject: string
  options: { title: string }[]
  expiration: number
  type: PollType
  visibility: PollVisibility
}

interface PollRow {
  id: string
  group_id: number
  owner_id: number
  subject: string
  options: string
  type: PollType
  visibility: PollVisibility
  message_id: string | null
  created_at: number
  last_modified: number
  expiration: number
  finished_message_id: string | null
}

/** §15.6 option. */
export interface PollOption {
  id: string
  title: string
  votes?: number
  voter_ids?: string[]
}

/** §15.6 poll data D. */
export interface PollData {
  id: string
  subject: string
  owner_id: string
  conversation_id: string
  created_at: number
  last_modified: number
  expiration: number
  status: 'active' | 'past'
  type: PollType
  visibility: PollVisibility
  options: PollOption[]
}

export interface PollView {
  data: PollData
  user_votes?: string[]
  user_vote?: string
}

/** `expiration` is at most one year ahead (so a milliseconds value fails). */
export const MAX_POLL_SECONDS = 31_536_000
const PAGE_SIZE = 10
const LAST_POLL_ID_KEY = 'last_poll_id'
/** Timers longer than this are re-armed (setTimeout's limit is about 24.8 days). */
const MAX_TIMER_MS = 3_600_000
/** Past the end of every 16-digit id, for the first PL6 page. */
const BEYOND_EVERY_ID = 'z'

export class Polls {
  readonly #core: Core
  readonly #insert: Statement<[Omit<PollRow, 'finished_message_id'>]>
  readonly #find: Statement<[string, number], PollRow>
  readonly #votes: Statement<[string], { user_id: number; option_id: string }>
  readonly #clearVotes: Statement<[string, number]>
  readonly #addVote: Statement<[string, number, string, number]>
  readonly #touch: Statement<[number, string]>
  readonly #end: Statement<[{ now: number; id: string }]>
  readonly #setMessage: Statement<[string, string]>
  readonly #page: Statement<[{ group: number; before: string; limit: number }], PollRow>
  readonly #dueToFinish: Statement<[number], PollRow>
  readonly #markFinished: Statement<[string, string]>
  readonly #nextExpiration: Statement<[], { next: number | null }>
  #timer: NodeJS.Timeout | null = null

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#insert = db.prepare(
      `INSERT INTO polls (id, group_id, owner_id, subject, options, type, visibility, message_id, created_at, last_modified, expiration)
       VALUES (@id, @group_id, @owner_id, @subject, @options, @type, @visibility, @message_id, @created_at, @last_modified, @expiration)`
    )
    this.#find = db.prepare('SELECT * FROM polls WHERE id = ? AND group_id = ?')
    this.#votes = db.prepare('SELECT user_id, option_id FROM poll_votes WHERE poll_id = ? ORDER BY id')
    this.#clearVotes = db.prepare('DELETE FROM poll_votes WHERE poll_id = ? AND user_id = ?')
    this.#addVote = db.prepare('INSERT INTO poll_votes (poll_id, user_id, option_id, voted_at) VALUES (?, ?, ?, ?)')
    this.#touch = db.prepare('UPDATE polls SET last_modified = ? WHERE id = ?')
    this.#end = db.prepare('UPDATE polls SET expiration = @now, last_modified = @now WHERE id = @id')
    this.#setMessage = db.prepare('UPDATE polls SET message_id = ? WHERE id = ?')
    this.#page = db.prepare('SELECT * FROM polls WHERE group_id = @group AND id < @before ORDER BY id DESC LIMIT @limit')
    this.#dueToFinish = db.prepare(
      'SELECT * FROM polls WHERE finished_message_id IS NULL AND expiration <= ? ORDER BY expiration, id'
    )
    this.#markFinished = db.prepare('UPDATE polls SET finished_message_id = ? WHERE id = ?')
    this.#nextExpiration = db.prepare('SELECT min(expiration) AS next FROM polls WHERE finished_message_id IS NULL')
    core.clock.onJump(() => this.finishExpired())
    this.#schedule()
  }

  /** PL1 after the checks: the poll and its message (pushed as `line.create`). */
  create(visible: VisibleGroup, creator: Account, input: NewPoll): { poll: { data: PollData }; message: MessageJson } {
    const { group, membership } = visible
    const now = this.#core.clock.now()
    const id = this.#nextId()
    const row = this.#core.transaction(() => {
      this.#insert.run({
        id,
        group_id: group.id,
        owner_id: creator.id,
        subject: input.subject,
        options: JSON.stringify(input.options.map((option) => option.title)),
        type: input.type,
        visibility: input.visibility,
        message_id: null,
        created_at: now,
        last_modified: now,
        expiration: input.expiration
      })
      const message = this.#core.use(MessageStore).insert({
        id: this.#core.use(MessageIds).next(),
        group_id: group.id,
        chat_id: null,
        recipient_id: null,
        sender_id: String(creator.id),
        sender_type: 'user',
        name: membership.nickname,
        avatar_url: creator.image_url,
        text: `Created new poll '${input.subject}'`,
        attachments: JSON.stringify([{ type: 'poll', poll_id: id }]),
        source_guid: randomHex(32),
        event: JSON.stringify({
          type: 'poll.created',
          data: {
            conversation: { id: String(group.id) },
            poll: { id, subject: input.subject },
            user: { id: String(creator.id), nickname: membership.nickname }
          }
        }),
        created_at: now
      })
      this.#setMessage.run(message.id, id)
      return message
    })
    const message = this.#core.use(MessageShapes).shape(row)
    this.#core.use(Conversations).pushToGroupMembers(group.id, message)
    this.#schedule()
    return { poll: { data: this.data(this.#require(group.id, id)) }, message }
  }

  /** §2.5 step 5: a poll of this group, else 404. */
  require(groupId: number, pollId: string | undefined): PollRow {
    const row = pollId !== undefined && /^[0-9]{16}$/.test(pollId) ? this.#find.get(pollId, groupId) : undefined
    if (row === undefined) throw notFound('Poll not found')
    return row
  }

  /** PL2 / PL3 / PL4 / PL5: `{data, user_votes?}` for the caller. */
  view(row: PollRow, userId: number, options: { withUserVote?: boolean } = {}): PollView {
    const view: PollView = { data: this.data(row) }
    const mine = this.#userVotes(row.id, userId)
    const first = mine[0]
    if (first !== undefined) {
      view.user_votes = mine
      if (options.withUserVote === true) view.user_vote = first
    }
    return view
  }

  /**
   * PL3 / PL4 once the poll exists: 400 when past, for an unknown or repeated option, or for a
   * count the type does not take (`single` exactly 1, `multi` ≥ 1). Replaces the caller's vote.
   */
  vote(row: PollRow, userId: number, optionIds: readonly string[]): PollView {
    if (this.#isPast(row)) throw badRequest('This poll has ended')
    const count = (JSON.parse(row.options) as string[]).length
    for (const id of optionIds) {
      if (!/^[1-9][0-9]*$/.test(id) || Number(id) > count) throw badRequest(`Unknown option ${id}`)
    }
    if (new Set(optionIds).size !== optionIds.length) throw badRequest('Options may be given only once')
    if (optionIds.length === 0 || (row.type === 'single' && optionIds.length !== 1)) {
      throw badRequest(row.type === 'single' ? 'A single-choice poll takes exactly one option' : 'Give at least one option')
    }
    const now = this.#core.clock.now()
    this.#core.transaction(() => {
      this.#clearVotes.run(row.id, userId)
      for (const id of optionIds) this.#addVote.run(row.id, userId, id, now)
      this.#touch.run(now, row.id)
    })
    return this.view(this.#require(row.group_id, row.id), userId)
  }

  /** PL5 once the poll exists: 403 unless the owner or a group admin; 400 when already past. */
  end(visible: VisibleGroup, row: PollRow, userId: number): PollView {
    const mayEnd = row.owner_id === userId || this.#core.use(Memberships).isAdminOrOwner(visible.group, visible.membership)
    if (!mayEnd) throw forbidden('Only the poll owner or a group admin may end this poll')
    if (this.#isPast(row)) throw badRequest('This poll has already ended')
    this.#end.run({ now: this.#core.clock.now(), id: row.id })
    this.finishExpired()
    return this.view(this.#require(row.group_id, row.id), userId)
  }

  /**
   * PL6: 10 per page, newest first. The continuation token is the id of the last poll on the
   * page; a token that is not a poll of this group → 400.
   */
  list(groupId: number, userId: number, token: string | undefined): { polls: PollView[]; continuation_token: string | null } {
    if (token !== undefined && (!/^[0-9]{16}$/.test(token) || this.#find.get(token, groupId) === undefined)) {
      throw badRequest('Unknown continuation_token')
    }
    const rows = this.#page.all({ group: groupId, before: token ?? BEYOND_EVERY_ID, limit: PAGE_SIZE + 1 })
    const page = rows.slice(0, PAGE_SIZE)
    return {
      polls: page.map((row) => this.view(row, userId, { withUserVote: true })),
      continuation_token: rows.length > PAGE_SIZE ? (page.at(-1)?.id ?? null) : null
    }
  }

  /** §15.6. */
  data(row: PollRow): PollData {
    const titles = JSON.parse(row.options) as string[]
    const voters = new Map<string, string[]>()
    for (const vote of this.#votes.all(row.id)) {
      const list = voters.get(vote.option_id) ?? []
      list.push(String(vote.user_id))
      voters.set(vote.option_id, list)
    }
    return {
      id: row.id,
      subject: row.subject,
      owner_id: String(row.owner_id),
      conversation_id: String(row.group_id),
      created_at: row.created_at,
      last_modified: row.last_modified,
      expiration: row.expiration,
      status: this.#isPast(row) ? 'past' : 'active',
      type: row.type,
      visibility: row.visibility,
      options: titles.map((title, index) => {
        const id = String(index + 1)
        const ids = voters.get(id) ?? []
        const option: PollOption = { id, title }
        if (ids.length > 0) {
          option.votes = ids.length
          if (row.visibility === 'public') option.voter_ids = ids
        }
        return option
      })
    }
  }

  /** Posts `poll.finished` once for every poll that has ended and has not had it yet. */
  finishExpired(): void {
    if (!this.#core.db.open) return
    const groups = this.#core.use(Groups)
    const systemMessages = this.#core.use(SystemMessages)
    for (const row of this.#dueToFinish.all(this.#core.clock.now())) {
      this.#core.transaction(() => {
        if (groups.find(row.group_id) === undefined) {
          this.#markFinished.run('', row.id) // the group is gone: nobody to tell
          return
        }
        const message = systemMessages.postGroupSystemMessage(row.group_id, `The poll '${row.subject}' has ended.`, {
          type: 'poll.finished',
          data: {
            conversation: { id: String(row.group_id) },
            poll: { id: row.id, subject: row.subject },
            options: this.data(row).options
          }
        })
        this.#markFinished.run(message.id, row.id)
      })
    }
    this.#schedule()
  }

  #isPast(row: PollRow): boolean {
    return row.expiration <= this.#core.clock.now()
  }

  #require(groupId: number, pollId: string): PollRow {
    const row = this.#find.get(pollId, groupId)
    if (row === undefined) throw new Error('poll vanished')
    return row
  }

  #userVotes(pollId: string, userId: number): string[] {
    return this.#votes
      .all(pollId)
      .filter((vote) => vote.user_id === userId)
      .map((vote) => vote.option_id)
      .sort((a, b) => Number(a) - Number(b))
  }

  /** 16 digits, increasing with creation: service-clock ms × 1000, bumped past the last id. */
  #nextId(): string {
    const stored = this.#core.meta.get(LAST_POLL_ID_KEY)
    const last = stored === undefined ? 0n : BigInt(stored)
    const candidate = BigInt(this.#core.clock.nowMs()) * 1000n
    const next = candidate > last ? candidate : last + 1n
    this.#core.meta.set(LAST_POLL_ID_KEY, next.toString())
    return next.toString()
  }

  /** Arms one timer for the earliest expiration of an unfinished poll. */
  #schedule(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    if (!this.#core.db.open) return
    const next = this.#nextExpiration.get()?.next ?? null
    if (next === null) return
    const delay = Math.min(Math.max(0, next * 1000 - this.#core.clock.nowMs()), MAX_TIMER_MS)
    this.#timer = setTimeout(() => {
      this.#timer = null
      try {
        this.finishExpired()
      } catch {
        // The service may be closing; the next start finishes what is left.
      }
    }, delay + 5)
    this.#timer.unref()
  }
}
