import { describe, expect, it } from 'vitest'
import type { NewPoll } from './polls'
import { pollProblem } from './poll-rules'

const NOW = 1_750_000_000
const fine: NewPoll = { subject: 'Where to?', options: ['Noodles', 'Tacos'], multiple: false, anonymous: false, expiresAt: NOW + 3600 }

describe('pollProblem', () => {
  it('finds nothing wrong with a question, 2–10 options and an expiry within the year', () => {
    expect(pollProblem(fine, NOW)).toBeNull()
    expect(pollProblem({ ...fine, options: Array.from({ length: 10 }, (_, n) => `Option ${n}`), expiresAt: NOW + 31_536_000 }, NOW)).toBeNull()
  })

  it.each<[string, Partial<NewPoll>, string]>([
    ['no question', { subject: '  ' }, 'Write a question for the poll.'],
    ['a question over 160 characters', { subject: 'x'.repeat(161) }, 'The question is too long: keep it to 160 characters.'],
    ['one option', { options: ['Noodles'] }, 'A poll needs at least 2 options.'],
    ['eleven options', { options: Array.from({ length: 11 }, (_, n) => `Option ${n}`) }, 'A poll can have at most 10 options.'],
    ['a blank option', { options: ['Noodles', ' '] }, 'Fill in every option, or remove the empty ones.'],
    ['an option over 160 characters', { options: ['Noodles', 'x'.repeat(161)] }, 'Keep each option to 160 characters.'],
    ['an expiry now', { expiresAt: NOW }, 'Choose when the poll ends, in the future.'],
    ['an expiry in milliseconds', { expiresAt: (NOW + 3600) * 1000 }, 'A poll can run for a year at most.'],
    ['a fractional expiry', { expiresAt: NOW + 0.5 }, 'Choose when the poll ends, in the future.']
  ])('refuses %s', (_, change, problem) => {
    expect(pollProblem({ ...fine, ...change }, NOW)).toBe(problem)
  })
})
