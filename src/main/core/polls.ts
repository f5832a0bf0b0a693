// Polls in groups: checks what the user asks for before the service sees it (PL1 refuses with a
// bare 400), and keeps polls to groups, where the service has them.
import { type ConversationId, conversationKind } from '@shared/conversation-id'
import type { NewPoll, Poll, PollPage } from '@shared/polls'
import { pollProblem } from '@shared/poll-rules'
import { AppError } from './app-error'
import type { PollService } from './ports'

export class Polls {
  readonly #service: PollService
  readonly #now: () => number

  constructor(service: PollService, now: () => number) {
    this.#service = service
    this.#now = now
  }

  async create(groupId: ConversationId, poll: NewPoll): ReturnType<PollService['createPoll']> {
    requireGroup(groupId)
    const clean = { ...poll, subject: poll.subject.trim(), options: poll.options.map((option) => option.trim()) }
    const problem = pollProblem(clean, Math.floor(this.#now() / 1000))
    if (problem !== null) throw new AppError('VALIDATION', problem)
    return this.#service.createPoll(groupId, clean)
  }

  async get(groupId: ConversationId, pollId: string): Promise<Poll> {
    requireGroup(groupId)
    return this.#service.poll(groupId, pollId)
  }

  async vote(groupId: ConversationId, pollId: string, optionIds: string[]): Promise<Poll> {
    requireGroup(groupId)
    if (optionIds.length === 0) throw new AppError('VALIDATION', 'Choose an option to vote for.')
    if (new Set(optionIds).size !== optionIds.length) throw new AppError('VALIDATION', 'Choose each option once.')
    return this.#service.vote(groupId, pollId, optionIds)
  }

  async end(groupId: ConversationId, pollId: string): Promise<Poll> {
    requireGroup(groupId)
    return this.#service.endPoll(groupId, pollId)
  }

  async list(groupId: ConversationId, next: string | null): Promise<PollPage> {
    requireGroup(groupId)
    return this.#service.polls(groupId, next)
  }
}

function requireGroup(conversationId: ConversationId): void {
  if (conversationKind(conversationId) !== 'group') throw new AppError('VALIDATION', 'Polls are for groups only.')
}
