// Focus never falls to the page's body, in Chromium against browser mode and the real service:
// every dialog gives focus back to what opened it when it closes (a dialog opened from a menu, to
// the menu's button, the menu item being gone); leaving or deleting a group puts it on the notice
// that says so, where the conversation was, with the group's name isolated from the words around
// it; and a Text us instead that cannot start gives it back to its button.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

/** "The reading group", in Arabic: a name read right to left. */
const RIGHT_TO_LEFT = 'مجموعة القراءة'

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
  ada = (await world.openApp('ada')).page
  await world.signIn(ada, world.account('Ada'))
}, 60_000)

afterAll(async () => {
  await world?.close()
})

const onBody = (page: Page): Promise<boolean> => page.evaluate('document.activeElement === null || document.activeElement === document.body')
const focused = (target: Locator): Promise<boolean> => target.evaluate((element) => element === element.ownerDocument.activeElement)

function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true })
}

/** Opens a dialog, closes it with Escape, and expects focus back on `returnsTo`. */
async function closesBackTo(page: Page, open: () => Promise<void>, opened: Locator, returnsTo: Locator): Promise<void> {
  await open()
  await opened.waitFor()
  await page.keyboard.press('Escape')
  await opened.waitFor({ state: 'hidden' })
  await expect.poll(() => onBody(page)).toBe(false)
  expect(await focused(returnsTo)).toBe(true)
}

describe('closing a dialog', () => {
  it('gives focus back to the sidebar button that opened it', async () => {
    for (const name of ['Settings', 'New group', 'Join with a link', 'Former groups', 'New message', 'Contacts']) {
      const opener = ada.getByRole('button', { name, exact: true })
      await closesBackTo(ada, () => opener.click(), dialog(ada, name), opener)
    }
  })

  it('gives focus back to the conversation header’s button that opened it', async () => {
    await conversation(ada, FIRST_GROUP).click()
    await ada.getByRole('heading', { name: FIRST_GROUP, level: 2 }).waitFor()
    for (const [button, name] of [
      ['Group settings', 'Group settings'],
      ['Members', 'Members'],
      ['Create poll', 'New poll'],
      ['Pictures', 'Pictures']
    ] as const) {
      const opener = ada.getByRole('button', { name: button, exact: true })
      await closesBackTo(ada, () => opener.click(), dialog(ada, name), opener)
    }
  })

  it('gives focus to the menu’s button when the dialog was opened from its menu', async () => {
    const options = ada.getByRole('button', { name: 'Conversation options' })
    for (const [item, name] of [
      ['Pictures', 'Pictures'],
      ['Export conversation…', 'Export conversation']
    ] as const) {
      const open = async () => {
        await options.click()
        await ada.getByRole('menuitem', { name: item }).click()
      }
      await closesBackTo(ada, open, dialog(ada, name), options)
    }
  })

  it('gives focus back to a member’s options after a confirmation the menu opened', async () => {
    await ada.getByRole('button', { name: 'Members', exact: true }).click()
    const members = dialog(ada, 'Members')
    const grace = members.getByRole('listitem').filter({ hasText: 'Grace Hopper' })
    const memberOptions = grace.getByRole('button', { name: 'Member options' })
    const ask = ada.getByRole('alertdialog')
    const open = async () => {
      await memberOptions.click()
      await ada.getByRole('menuitem', { name: 'Remove', exact: true }).click()
    }
    // Escape answers Cancel: Grace stays.
    await closesBackTo(ada, open, ask, memberOptions)
    await ada.keyboard.press('Escape')
    await members.waitFor({ state: 'hidden' })
  })
})

describe('leaving and deleting a group', () => {
  async function createGroup(name: string): Promise<void> {
    await ada.getByRole('button', { name: 'New group', exact: true }).click()
    const newGroup = dialog(ada, 'New group')
    await newGroup.getByRole('textbox', { name: 'Group name' }).fill(name)
    await newGroup.getByRole('button', { name: 'Create' }).click()
    await ada.getByRole('heading', { name, level: 2 }).waitFor()
  }

  /** The notice where the conversation was: focused, its words as given, the group's name in a <bdi>. */
  async function noticeHasFocus(text: string, name: string): Promise<void> {
    const notice = ada.getByRole('status').filter({ hasText: text })
    await notice.waitFor()
    await expect.poll(() => focused(notice)).toBe(true)
    expect(await notice.textContent()).toBe(text)
    expect(await notice.locator('bdi').allTextContents()).toEqual([name])
  }

  it('puts focus on what is said where a deleted group was', async () => {
    await createGroup(RIGHT_TO_LEFT)
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    await settings.getByRole('textbox', { name: /^Type “/ }).fill(RIGHT_TO_LEFT)
    await settings.getByRole('button', { name: 'Delete group' }).click()

    await noticeHasFocus(`You deleted ${RIGHT_TO_LEFT}.`, RIGHT_TO_LEFT)
  })

  it('puts focus on what is said where a group just left was', async () => {
    // Launch Team is Grace's: Ada is a member, and may leave.
    await conversation(ada, 'Launch Team').click()
    await ada.getByRole('button', { name: 'Group settings' }).click()
    await dialog(ada, 'Group settings').getByRole('button', { name: 'Leave group' }).click()

    await noticeHasFocus('You left Launch Team. You can rejoin it from Former groups.', 'Launch Team')
    expect(world.pageErrors).toEqual([])
  })
})

/**
 * Stands between an app and the service: the sign-in's answer loses where to text (as a
 * deployment's may), so Text us instead must ask the service (V1), and that question is refused.
 */
class TextRouteRefuser {
  upstream = ''
  readonly #server: Server

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<TextRouteRefuser> {
    const server = createServer()
    const refuser = new TextRouteRefuser(server)
    server.on('request', (request, response) => refuser.#pass(request, response))
    server.on('upgrade', (_request, socket) => socket.destroy())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return refuser
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  #pass(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/'
    if (request.method === 'GET' && /\/verifications\/[^/?]+(\?|$)/.test(url)) {
      request.resume()
      response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ meta: { code: 503, errors: ['unavailable'] } }))
      return
    }
    const signIn = request.method === 'POST' && /\/access_tokens(\?|$)/.test(url)
    const forwarded = httpRequest(new URL(url, this.upstream), { method: request.method ?? 'GET', headers: request.headers }, (answer) => {
      if (!signIn) {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
        return
      }
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8').replace(/"long_pin":"[^"]*"/g, '"long_pin":null')
        const headers = { ...answer.headers }
        delete headers['content-length']
        response.writeHead(answer.statusCode ?? 502, headers).end(body)
      })
    })
    forwarded.on('error', () => response.writeHead(502).end())
    request.pipe(forwarded)
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}

describe('a Text us instead that cannot start', () => {
  let refuser: TextRouteRefuser
  let elsewhere: EndToEnd

  afterAll(async () => {
    await elsewhere?.close()
    await refuser?.close()
  })

  it('gives focus back to its button, beside the reason', async () => {
    refuser = await TextRouteRefuser.start()
    elsewhere = await EndToEnd.start({ appOrigin: refuser.origin })
    refuser.upstream = elsewhere.origin
    const katherine = elsewhere.account('Katherine')
    const { page } = await elsewhere.openApp('katherine')
    await page.getByRole('textbox', { name: 'Username' }).fill(katherine.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(katherine.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const textInstead = page.getByRole('button', { name: 'Text us instead' })
    await textInstead.waitFor()

    await textInstead.click()

    await page.getByRole('alert').filter({ hasText: /\w/ }).first().waitFor()
    // Still on the codes, and focus where it was, not on the page.
    await page.getByRole('textbox', { name: 'Verification code' }).waitFor()
    await expect.poll(() => focused(textInstead)).toBe(true)
    expect(await onBody(page)).toBe(false)
  }, 60_000)
})
