import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

/**
 * P1's wrong `password_current` counts against the account's failure limit, the one L1's wrong
 * passwords count against (§3.1, §18.28, §18.32): 10 in 15 minutes for the two together.
 */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const WINDOW_SECONDS = 15 * 60

const login = (user: TestUser, extra: Record<string, unknown> = {}) =>
  service.call('POST', '/v2/access_tokens', {
    body: { app_id: 'app-1', grant_type: 'password', username: user.email, password: user.password, ...extra }
  })

const changePassword = (token: string, current: string, next = 'a new password') =>
  service.call('POST', '/v3/users/password', { token, body: { password: next, password_current: current } })

const me = (token: string) => service.call('GET', '/v3/users/me', { token })

/** Every way L1 can name the account: its e-mail in another case, its phone with and without the space. */
const spellingsOf = (user: TestUser): string[] => [user.email, user.email.toUpperCase(), user.phoneNumber, user.phoneNumber.replace(' ', '')]

const FAILURE_BODY_429 = { response: null, meta: { code: 429, errors: expect.any(Array) } }

describe('P1 under the failure limit (§18.32)', () => {
  it('answers 403 to 10 wrong current passwords, then 429 even to the right one, changing nothing until the window has passed', async () => {
    const user = await service.signUp({ password: 'the old password' })

    for (let i = 0; i < 10; i++) expect((await changePassword(user.token, `wrong-${i}`)).status).toBe(403)
    const limited = await changePassword(user.token, 'the old password')
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual(FAILURE_BODY_429)
    expect((await changePassword(user.token, 'wrong-again')).status).toBe(429)

    // Nothing changed: the token still works, and L1 is limited too, by every spelling of the account.
    expect((await me(user.token)).status).toBe(200)
    for (const username of spellingsOf(user)) expect((await login({ ...user, email: username })).status, username).toBe(429)

    await service.advanceClock(WINDOW_SECONDS + 1)
    // The old password is still the password; the new one never was.
    expect((await login(user)).status).toBe(202)
    expect((await login(user, { password: 'a new password' })).status).toBe(401)
    expect((await changePassword(user.token, 'the old password')).status).toBe(201)
  })

  it('shares the limit with L1: wrong passwords to either add up, whichever spelling L1 was sent', async () => {
    const user = await service.signUp()
    const spellings = spellingsOf(user)

    for (let i = 0; i < 6; i++) {
      const username = spellings[i % spellings.length] ?? user.email
      expect((await login({ ...user, email: username }, { password: `wrong-${i}` })).status).toBe(401)
    }
    for (let i = 6; i < 10; i++) expect((await changePassword(user.token, `wrong-${i}`)).status).toBe(403)

    expect((await changePassword(user.token, user.password)).status).toBe(429)
    for (const username of spellings) expect((await login({ ...user, email: username })).status, username).toBe(429)
    expect((await me(user.token)).status).toBe(200)
  })

  it('is 429 after 10 wrong L1 passwords, however the account was named', async () => {
    const user = await service.signUp()
    const spellings = spellingsOf(user)
    for (let i = 0; i < 10; i++) {
      const username = spellings[i % spellings.length] ?? user.email
      expect((await login({ ...user, email: username }, { password: `wrong-${i}` })).status).toBe(401)
    }

    const limited = await changePassword(user.token, user.password)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual(FAILURE_BODY_429)
    expect((await me(user.token)).status).toBe(200)
  })

  it('does not count wrong passwords for another account, nor P1 answers of 400', async () => {
    const user = await service.signUp()
    const neighbour = await service.signUp()
    for (let i = 0; i < 10; i++) expect((await changePassword(neighbour.token, `wrong-${i}`)).status).toBe(403)
    for (let i = 0; i < 10; i++) expect((await changePassword(user.token, `wrong-${i}`, 'short')).status).toBe(400)

    expect((await changePassword(user.token, user.password)).status).toBe(201)
  })

  it('holds under concurrency: of 50 simultaneous wrong P1s after 3 failed sign-ins, 7 are 403 and the rest 429', async () => {
    const user = await service.signUp()
    for (let i = 0; i < 3; i++) expect((await login(user, { password: `wrong-${i}` })).status).toBe(401)

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => changePassword(user.token, `guess-${i}`)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 403)).toHaveLength(7)
    expect(statuses.filter((status) => status === 429)).toHaveLength(43)

    expect((await changePassword(user.token, user.password)).status).toBe(429)
    expect((await login(user)).status).toBe(429)
    expect((await me(user.token)).status).toBe(200)
  })

  it('revokes no token and forgets no device when it answers 429', async () => {
    const user = await service.createUser()
    const here = await service.signIn(user, { appId: 'here', deviceId: 'laptop' })
    const elsewhere = await service.signIn(user, { appId: 'elsewhere' })
    for (let i = 0; i < 10; i++) expect((await changePassword(elsewhere, `wrong-${i}`)).status).toBe(403)

    expect((await changePassword(here, user.password)).status).toBe(429)

    for (const token of [here, elsewhere]) expect((await me(token)).status).toBe(200)
    const tokens = await service.call('GET', '/v2/access_tokens', { token: here })
    expect(tokens.body.access_tokens.map((entry: { app_id: string }) => entry.app_id)).toEqual(['here', 'elsewhere'])
    await service.advanceClock(WINDOW_SECONDS + 1)
    // The laptop is still a known device: the right password signs in there without a challenge.
    expect((await login(user, { device_id: 'laptop' })).status).toBe(200)
  })
})
