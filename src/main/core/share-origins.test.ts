import { describe, expect, it } from 'vitest'
import { AppError } from './app-error'
import { ShareOrigins } from './share-origins'

const OURS = { origin: 'https://chat.example.test', host: 'chat.example.test' }
const STRANGER = { origin: 'https://evil.example', host: 'evil.example' }

function origins(answers: (string | null | Error)[]): { origins: ShareOrigins; asked: () => number } {
  let asked = 0
  const origins = new ShareOrigins({
    contactLink: async () => {
      const answer = answers[Math.min(asked, answers.length - 1)] ?? null
      asked += 1
      if (answer instanceof Error) throw answer
      return answer
    }
  })
  return { origins, asked: () => asked }
}

describe('the service’s share origin', () => {
  it('is learned from the user’s own contact link, asked for once, and takes links there only', async () => {
    const { origins: shares, asked } = origins(['https://chat.example.test/contact/12/Ab3dE6gH'])
    expect(await shares.problemWith(OURS, 'join_group')).toBeNull()
    expect(await shares.problemWith(STRANGER, 'join_group')).toBe(
      'This link is not one of your service’s: it leads to evil.example, and your service’s group links begin with https://chat.example.test/join_group/. Nothing was sent.'
    )
    expect(await shares.problemWith(STRANGER, 'contact')).toBe(
      'This link is not one of your service’s: it leads to evil.example, and your service’s contact links begin with https://chat.example.test/contact/. Nothing was sent.'
    )
    expect(asked()).toBe(1)
  })

  it('is learned from a group’s share_url too, with no need to ask', async () => {
    const { origins: shares, asked } = origins([null])
    shares.learn('https://share.chat.example.test/join_group/7/xyzXYZ12')
    expect(await shares.problemWith({ origin: 'https://share.chat.example.test', host: 'share.chat.example.test' }, 'join_group')).toBeNull()
    expect(asked()).toBe(0)
  })

  it('asks again after the service could not be reached, and says so meanwhile', async () => {
    const { origins: shares, asked } = origins([new AppError('NETWORK', 'Cannot reach the service.'), 'https://chat.example.test/contact/1/a'])
    await expect(shares.problemWith(OURS, 'contact')).rejects.toMatchObject({ code: 'NETWORK' })
    expect(await shares.problemWith(OURS, 'contact')).toBeNull()
    expect(asked()).toBe(2)
  })

  it('refuses every link while the service has shown no share_url at all', async () => {
    const { origins: shares } = origins([null])
    expect(await shares.problemWith(OURS, 'join_group')).toMatch(/cannot be checked/)
  })

  it('forgets what it learned when the session or the service changes', async () => {
    const { origins: shares, asked } = origins(['https://chat.example.test/contact/1/a', 'https://other.example.test/contact/1/a'])
    expect(await shares.problemWith(OURS, 'join_group')).toBeNull()
    shares.forget()
    expect(await shares.problemWith(OURS, 'join_group')).toMatch(/leads to chat\.example\.test/)
    expect(await shares.home()).toBe('https://other.example.test')
    expect(asked()).toBe(2)
  })
})
