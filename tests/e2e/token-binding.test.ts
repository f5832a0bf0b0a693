// A person signed in, then the app started again pointed at another service (a changed setting, or
// a program that started it with PARLEY_SERVICE_ORIGIN of its own): the kept token is never shown
// there, it is revoked where it was issued, and the sign-in screen says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localServiceConfig } from '../../src/main/api/service-config'
import { startRecordingHost, type HttpDouble } from '../support/http-doubles'
import { EndToEnd, keptToken } from './support'

let e2e: EndToEnd
let elsewhere: HttpDouble

beforeAll(async () => {
  e2e = await EndToEnd.start()
  elsewhere = await startRecordingHost()
})

afterAll(async () => {
  await e2e.close()
  await elsewhere.close()
})

describe('a start pointed at another service than the one that issued the kept token', () => {
  it('shows the sign-in screen saying the address changed, and the other service never hears the token', async () => {
    const ada = e2e.account('Ada')
    const first = await e2e.openApp('ada')
    await e2e.signIn(first.page, ada)
    const token = keptToken(first.dataDir)
    await first.context.close()
    await first.app.close()

    const { page } = await e2e.openApp('ada', { config: localServiceConfig(elsewhere.origin) })
    await expect
      .poll(() => page.getByText(`The service address changed since you signed in. Sign in again to use ${elsewhere.origin}.`).count())
      .toBe(1)
    await page.getByRole('textbox', { name: 'Username' }).waitFor()
    expect(elsewhere.heard(token)).toBe(false)
    const refused = await fetch(`${e2e.origin}/v3/users/me`, { headers: { 'x-access-token': token } })
    expect(refused.status).toBe(401)
    expect(e2e.pageErrors).toEqual([])
  })
})
