// Hostile content, end to end: people Ada shares groups with give themselves names, nicknames,
// group names and descriptions, a bio, poll questions and options, and messages and links made of
// a corpus of XSS payloads, bidirectional-text tricks, invisible characters and very long words.
// Everything is seeded over the service's REST interface, as any client could; then Ada's app in
// Chromium shows each place it reaches the screen. Every payload calls a trap the page sets up
// before the app's own scripts run, so anything that executes is caught, and so is anything the
// Content-Security-Policy had to stop. The layout must hold, names must not reorder the text after
// them, and links may leave the app only through the external-link path, for http(s) only.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import faye, { type Message } from 'faye'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoAccount } from '../../server/src/index'
import { isWebUrl } from '@shared/web-url'
import { EndToEnd } from './support'

/** The `--dev` attestation secret (§17): creating a group and adding members need it. */
const ATTESTATION_SECRET = 'local-dev-attestation'

/**
 * Runs in every frame before the app's scripts: what a payload would call, recorded instead of
 * done, and every Content-Security-Policy violation. The app itself needs none of these.
 */
const TRAPS = `
  window.__pwned = []
  window.__violations = []
  for (const name of ['alert', 'confirm', 'prompt', 'print', 'open']) {
    window[name] = (...args) => { window.__pwned.push(name + ': ' + String(args[0])); return null }
  }
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline') + ': ' + event.sample)
  }, true)
`

/** A statement that proves, if it ever runs, which payload ran. */
const ran = (id: string): string => `__pwned.push('${id}')`

/** Markup and script in every form we know of; each calls the trap with its own id. */
function markup(id: string): string[] {
  return [
    `<script>${ran(id)}</script>`,
    `<img src=x onerror="${ran(id)}">`,
    `<svg onload="${ran(id)}"><circle r="9"/></svg>`,
    `<svg><script>${ran(id)}</script></svg>`,
    `<a href="javascript:${ran(id)}">click me</a>`,
    `<iframe srcdoc="<script>parent.${ran(id)}</script>"></iframe>`,
    `<details open ontoggle="${ran(id)}">details</details>`,
    `"><script>alert('${id}')</script>`,
    `'><img src=x onerror=alert('${id}')>`,
    `<math><mtext><table><mglyph><style><img src=x onerror=alert('${id}')>`,
    `<style>@import 'https://evil.test/${id}.css'; * { display: none }</style>`,
    `<div style="width: 100000px; background: url('javascript:${ran(id)}')">wide</div>`,
    `<p style="x: expression(${ran(id)})">old IE</p>`,
    `&lt;script&gt;${ran(id)}&lt;/script&gt;`,
    `&#60;img src=x onerror=alert('${id}')&#62;`,
    `{@html '<img src=x onerror=${ran(id)}>'}`,
    `{{constructor.constructor("${ran(id)}")()}}`,
    `\${${ran(id)}}`,
    `javascript:${ran(id)}`
  ]
}

const RIGHT_TO_LEFT_OVERRIDE = '\u202E'
/** Every bidirectional control: embeddings, overrides and isolates opened and never closed. */
const BIDI_CONTROLS = '\u202A\u202B\u202D\u202E\u2066\u2067\u2068\u200F\u061C'
const ZERO_WIDTH = '\u200B\u200C\u200D\u2060\uFEFF'
const longWord = (length: number, letter = 'W'): string => letter.repeat(length)

/**
 * The people who write it, made through `/dev/users`. Eve's name ends in an override that is never
 * closed: whatever is drawn after her name must not come out backwards.
 */
const MALLORY = { name: `<img src=x onerror=alert('name-mallory')>`, email: 'mallory@hostile.test', phoneNumber: '+1 5550199001' }
const EVE = { name: `Eve ${RIGHT_TO_LEFT_OVERRIDE}gnp.exe`, email: 'eve@hostile.test', phoneNumber: '+1 5550199002' }
const TRUDY = { name: `<svg onload=${ran('name-trudy')}>${ZERO_WIDTH}`, email: 'trudy@hostile.test', phoneNumber: '+1 5550199003' }
const WIL = { name: longWord(64), email: 'wil@hostile.test', phoneNumber: '+1 5550199004' }
const PASSWORD = 'hostile-pass-1'

/** Nicknames they give themselves in the group (at most 50 characters). */
const NICKNAMES = {
  mallory: `<script>alert('nick-mallory')</script>`,
  trudy: `{{constructor.constructor("alert('n')")()}}`,
  wil: longWord(50, 'N'),
  /** Eve's own in the first group, replacing her name: the system line names both. */
  eve: 'Eve'
}
/** What Mallory names Ada when adding her: an override before "(you)" in Ada's own member row. */
const ADA_NICKNAME = `${RIGHT_TO_LEFT_OVERRIDE}Ada`

const GROUPS = {
  markup: { name: `<img src=x onerror=alert('group-name')>`, description: markup('group-description').join(' ').slice(0, 255) },
  long: { name: longWord(140, 'G'), description: longWord(255, 'D') },
  bidi: { name: `${RIGHT_TO_LEFT_OVERRIDE}srekih dnekeew`, description: `${BIDI_CONTROLS}${ZERO_WIDTH}` }
}

/** Text that follows a right-to-left name in the same line, and must read left to right. */
const AFTER_EVE_IN_GROUP = 'plain words after'
const AFTER_EVE_IN_CHAT = 'chat words after'

/** Each message starts with a tag of its own, so its row can be found; the rest must show verbatim. */
const MESSAGES: { tag: string; text: string }[] = [
  ...markup('message').map((payload, index) => ({ tag: `[m${index}]`, text: `[m${index}] ${payload}` })),
  { tag: '[bidi]', text: `[bidi] ${BIDI_CONTROLS}override never closed` },
  { tag: '[zero-width]', text: `[zero-width] in${ZERO_WIDTH}visible` },
  { tag: '[long]', text: `[long] ${longWord(993)}` }
]

/** Link targets: only the web ones may become links, and only they may reach the browser. */
const WEB_LINKS = ['https://example.test/path?q=1&r=2#top', 'http://example.test/plain', 'HTTPS://EXAMPLE.TEST/SHOUTING']
const NOT_LINKS = [
  `javascript:${ran('link-1')}`,
  `JaVaScRiPt:${ran('link-2')}`,
  `java\tscript:${ran('link-3')}`,
  `&#106;avascript:${ran('link-4')}`,
  `java&#115;cript:${ran('link-5')}`,
  `data:text/html,<script>${ran('link-6')}</script>`,
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgnbGluay03Jyk8L3NjcmlwdD4=',
  `vbscript:msgbox("link-8")`,
  'VBScript:msgbox("link-9")',
  'file:///etc/passwd',
  'FILE://C:/Windows/System32/calc.exe',
  `<a href="javascript:${ran('link-10')}">https://example.test/looks-safe</a>`
]
const LINK_MESSAGES = [
  `[links-web] ${WEB_LINKS.join(' and ')}.`,
  ...NOT_LINKS.map((target, index) => `[links-${index}] ${target}`),
  // A link's text may carry an override; the link itself stays the one address.
  `[links-bidi] https://example.test/${RIGHT_TO_LEFT_OVERRIDE}gpj.exe`,
  `[links-quote] https://example.test/"onmouseover="${ran('link-attr')}`
]

/** Places: a name made of markup on a real place links to a map; coordinates that are not numbers link nowhere. */
const PLACE_NAME = `<img src=x onerror=${ran('location-name')}>`
const LOCATIONS = [
  { lat: '51.5', lng: '-0.12', name: PLACE_NAME },
  { lat: `javascript:${ran('location-lat')}`, lng: '0', name: 'Nowhere at all' }
]
const MAP_PAGE = 'https://www.openstreetmap.org/?mlat=51.5&mlon=-0.12#map=16/51.5/-0.12'

const POLL = {
  subject: `<script>${ran('poll-subject')}</script>${RIGHT_TO_LEFT_OVERRIDE}`,
  options: [`<img src=x onerror=${ran('poll-option')}>`, longWord(160, 'O'), `${RIGHT_TO_LEFT_OVERRIDE}${ZERO_WIDTH}{@html x}`]
}

const MALLORY_BIO = `${markup('bio').join(' ').slice(0, 300)} ${longWord(190, 'B')}`

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** A call to the service as one of the hostile people, or as nobody for `/dev/*`; the payload of its answer. */
async function call<T>(method: 'GET' | 'POST', path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-verify-token': ATTESTATION_SECRET }
  if (token !== null) headers['x-access-token'] = token
  const response = await fetch(new URL(path, world.origin), {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  const parsed = (text === '' ? {} : JSON.parse(text)) as { response?: T }
  // v3 answers are enveloped (§2.4); v2, v4 and /dev are bare.
  return (path.startsWith('/v3/') ? parsed.response : parsed) as T
}

interface Person {
  id: string
  token: string
}

async function signUp(who: { name: string; email: string; phoneNumber: string }): Promise<Person> {
  await call('POST', '/dev/users', null, { name: who.name, email: who.email, phone_number: who.phoneNumber, password: PASSWORD })
  const account: DemoAccount = { ...who, password: PASSWORD }
  const token = await world.restToken(account, 'hostile-device')
  const me = await call<{ id: string }>('GET', '/v3/users/me', token)
  return { id: me.id, token }
}

let sourceGuid = 0
async function post(groupId: string, person: Person, text: string, attachments: unknown[] = []): Promise<void> {
  sourceGuid += 1
  await call('POST', `/v3/groups/${groupId}/messages`, person.token, { message: { source_guid: `hostile-${sourceGuid}`, text, attachments } })
}

/** Mallory's group with these people in it, each with the nickname given (Mallory's is her name until she changes it). */
async function groupOf(owner: Person, plan: { name: string; description: string }, members: (({ user_id: string } | { email: string }) & { nickname: string })[]): Promise<string> {
  const group = await call<{ id: string }>('POST', '/v3/groups', owner.token, plan)
  await call('POST', `/v3/groups/${group.id}/members/add`, owner.token, { members })
  return group.id
}

async function setNickname(groupId: string, person: Person, nickname: string): Promise<void> {
  await call('POST', `/v3/groups/${groupId}/memberships/update`, person.token, { membership: { nickname } })
}

/** Puts the whole corpus in place, as the hostile people over REST. */
async function seedHostileContent(): Promise<{ eve: Person; bidiGroup: string }> {
  const [mallory, eve, trudy, wil] = await Promise.all([signUp({ ...MALLORY, name: 'Mallory' }), signUp(EVE), signUp(TRUDY), signUp(WIL)])
  if (!mallory || !eve || !trudy || !wil) throw new Error('the hostile people were not all signed up')
  // Mallory gives herself her name and bio afterwards, through her profile (U2), as any client can.
  await call('POST', '/v3/users/update', mallory.token, { name: MALLORY.name, bio: MALLORY_BIO })

  const everyone = [
    { user_id: eve.id, nickname: EVE.name },
    { user_id: trudy.id, nickname: TRUDY.name.slice(0, 50) },
    { user_id: wil.id, nickname: WIL.name.slice(0, 50) },
    // By e-mail: a token of Ada's own now would race her app's sign-in for the latest SMS code.
    { email: world.account('Ada').email, nickname: ADA_NICKNAME }
  ]
  const markupGroup = await groupOf(mallory, GROUPS.markup, everyone)
  const { members } = await call<{ members: { user_id: string; nickname: string }[] }>('GET', `/v3/groups/${markupGroup}`, mallory.token)
  const ada = { id: members.find((member) => member.nickname === ADA_NICKNAME)?.user_id ?? '' }
  await setNickname(markupGroup, mallory, NICKNAMES.mallory)
  await setNickname(markupGroup, trudy, NICKNAMES.trudy)
  await setNickname(markupGroup, wil, NICKNAMES.wil)
  await setNickname(markupGroup, eve, NICKNAMES.eve)
  const writers = [mallory, trudy, wil, eve]
  for (const [index, message] of MESSAGES.entries()) await post(markupGroup, writers[index % writers.length] ?? mallory, message.text)
  for (const text of LINK_MESSAGES) await post(markupGroup, mallory, text)
  for (const [index, location] of LOCATIONS.entries()) await post(markupGroup, mallory, `[location-${index}]`, [{ type: 'location', ...location }])

  const expiration = Math.floor(Date.now() / 1000) + 86_400
  const { poll } = await call<{ poll: { data: { id: string } } }>('POST', `/v3/poll/${markupGroup}`, mallory.token, {
    subject: POLL.subject,
    options: POLL.options.map((title) => ({ title })),
    expiration,
    type: 'single',
    visibility: 'public'
  })
  for (const [index, voter] of [mallory, eve, trudy, wil].entries()) {
    await call('POST', `/v3/poll/${markupGroup}/${poll.data.id}/${(index % POLL.options.length) + 1}`, voter.token)
  }

  const longGroup = await groupOf(mallory, GROUPS.long, [{ user_id: wil.id, nickname: NICKNAMES.wil }, { user_id: ada.id, nickname: 'Ada' }])
  await post(longGroup, wil, longWord(1000, 'L'))

  // Eve writes last here under her own name, so the list's preview draws her name before her words.
  const bidiGroup = await groupOf(mallory, GROUPS.bidi, [{ user_id: eve.id, nickname: EVE.name }, { user_id: ada.id, nickname: 'Ada' }])
  await post(bidiGroup, eve, AFTER_EVE_IN_GROUP)

  await call('POST', '/v3/direct_messages', eve.token, {
    direct_message: { source_guid: 'hostile-dm', recipient_id: ada.id, text: AFTER_EVE_IN_CHAT }
  })
  return { eve, bidiGroup }
}

/** Says over the push gateway (§14.3) that `person` is typing in the group, as their own app would. */
async function typing(person: Person, groupId: string): Promise<void> {
  const client = new faye.Client(`${world.origin}/faye`)
  client.addExtension({
    outgoing(message: Message, callback: (message: Message) => void) {
      if (!message.channel.startsWith('/meta/')) message.ext = { access_token: person.token, timestamp: Math.floor(Date.now() / 1000) }
      callback(message)
    }
  })
  try {
    await client.publish(`/group/${groupId}`, { type: 'typing', user_id: person.id, started: Date.now() })
  } finally {
    client.disconnect()
  }
}

/** What the traps caught: calls a payload made, and what the policy had to block. */
async function caught(page: Page): Promise<{ pwned: string[]; violations: string[] }> {
  return page.evaluate<{ pwned: string[]; violations: string[] }>(
    '({ pwned: [...window.__pwned], violations: [...window.__violations] })'
  )
}

/**
 * Markup that only a payload could have made: an inline handler attribute (the app attaches its
 * handlers in script, never as attributes), an inline script, a frame, or a link that is not to
 * the web.
 */
async function injectedMarkup(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const found = []
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) {
        if (attribute.startsWith('on')) found.push(element.tagName + '[' + attribute + ']')
      }
    }
    for (const element of document.querySelectorAll('script:not([src]), body style, iframe, object, embed, math, details')) found.push(element.outerHTML.slice(0, 80))
    for (const link of document.querySelectorAll('a[href]')) {
      if (!/^https?:$/.test(new URL(link.href, location.href).protocol)) found.push('a[href=' + link.getAttribute('href') + ']')
    }
    return found
  })()`)
}

/**
 * Where the layout broke: the page scrolling sideways, a region reaching past the window, a box
 * whose content spills out sideways, or a scrolling box that scrolls sideways. Boxes that clip on
 * purpose (an ellipsis, say) are fine. In-page source, run as `(LAYOUT_PROBLEMS_IN_PAGE)(regions)`.
 */
const LAYOUT_PROBLEMS_IN_PAGE = `(regions) => {
  const problems = []
  const width = window.innerWidth
  const describe = (element) =>
    element.tagName.toLowerCase() + (typeof element.className === 'string' && element.className.trim() !== '' ? '.' + element.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (element.textContent || '').trim().slice(0, 40) + '"'
  if (document.documentElement.scrollWidth > width) problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width)
  for (const selector of regions) {
    const found = document.querySelectorAll(selector)
    if (found.length === 0) problems.push('nothing matches ' + selector)
    for (const region of found) {
      const box = region.getBoundingClientRect()
      if (box.left < -1 || box.right > width + 1) problems.push(selector + ' reaches past the window: ' + Math.round(box.left) + '..' + Math.round(box.right) + ' of ' + width)
      for (const element of [region, ...region.querySelectorAll('*')]) {
        const style = getComputedStyle(element)
        if (style.display === 'inline' || style.display === 'none' || style.display === 'contents') continue
        if (element.closest('.visually-hidden') !== null) continue
        if (element.scrollWidth <= element.clientWidth + 1) continue
        if (style.overflowX === 'visible') problems.push('content spills out of ' + describe(element) + ': ' + element.scrollWidth + ' > ' + element.clientWidth)
        else if (style.overflowX === 'auto' || style.overflowX === 'scroll') problems.push(describe(element) + ' scrolls sideways: ' + element.scrollWidth + ' > ' + element.clientWidth)
      }
    }
  }
  return problems
}`

async function layoutProblems(page: Page, regions: string[]): Promise<string[]> {
  return page.evaluate<string[]>(`(${LAYOUT_PROBLEMS_IN_PAGE})(${JSON.stringify(regions)})`)
}

/**
 * Where each letter of `marker` is drawn, left to right in the window, in the first element that
 * `selector` matches and whose text has `line`. Text that follows a name in its line must read left to
 * right: increasing positions. In-page source, run as `(LETTER_POSITIONS_IN_PAGE)(selector, line, marker)`.
 */
const LETTER_POSITIONS_IN_PAGE = `(selector, line, marker) => {
  const row = [...document.querySelectorAll(selector)].find((element) => element.textContent.includes(line))
  if (row === undefined) return null
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const at = node.data.indexOf(marker)
    if (at < 0) continue
    const positions = []
    for (let index = at; index < at + marker.length; index += 1) {
      if (node.data[index] === ' ') continue
      const range = document.createRange()
      range.setStart(node, index)
      range.setEnd(node, index + 1)
      positions.push(range.getBoundingClientRect().left)
    }
    return positions
  }
  return null
}`

async function letterPositions(page: Page, selector: string, line: string, marker: string): Promise<number[] | null> {
  const args = [selector, line, marker].map((arg) => JSON.stringify(arg)).join(', ')
  return page.evaluate<number[] | null>(`(${LETTER_POSITIONS_IN_PAGE})(${args})`)
}

/** Whether the long word's paragraph, in the message row that has `tag`, wraps inside its row on more than one line. */
const WRAPS_IN_PAGE = `(tag) => {
  const row = [...document.querySelectorAll('[aria-label="Messages"] > [data-chunk] > li')].find((element) => element.textContent.includes(tag))
  const text = row?.querySelector('p.text')
  if (!text) return null
  const box = text.getBoundingClientRect()
  const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 20
  return { inside: text.scrollWidth <= text.clientWidth + 1 && box.right <= row.getBoundingClientRect().right + 1, lines: Math.round(box.height / lineHeight) }
}`

function readsLeftToRight(positions: number[] | null): boolean {
  return positions !== null && positions.length > 1 && positions.every((left, index) => index === 0 || left > (positions[index - 1] ?? 0))
}

const LIST = '[aria-label="Conversations"]'
const HEADER = 'section.pane > header'
const COMPOSER = 'form.composer'
/** The history's rows: in chunks painted apart, then the unsent messages' rows. */
const MESSAGE_ROWS = '[aria-label="Messages"] > [data-chunk] > li, [aria-label="Messages"] > li'
const LIST_ROWS = '[aria-label="Conversations"] button'

function messageRow(page: Page, tag: string): Locator {
  return page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: tag })
}

/**
 * Scrolls the history up until `row` is drawn, and it into view: a conversation opens at its newest
 * rows, and those above come in as the history scrolls towards them.
 */
async function scrollUpTo(page: Page, row: Locator): Promise<void> {
  const history = page.getByRole('region', { name: 'Message history' })
  await expect
    .poll(
      async () => {
        if ((await row.count()) > 0) return true
        await history.evaluate((element) => {
          element.scrollTop = 0
        })
        return false
      },
      { timeout: 15_000 }
    )
    .toBe(true)
  await row.scrollIntoViewIfNeeded()
}

/** A conversation in the list whose name or preview contains `text`, taken literally. */
function hostileGroup(page: Page, text: string): Locator {
  return page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: text })
}

function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole('dialog', { name })
}

describe('hostile content shown to Ada', () => {
  let ada: Page
  let eve: Person
  let bidiGroup: string
  const opened: string[] = []
  const framesSent: string[] = []

  /** Nothing ran, nothing was blocked, no injected markup, and the page is still the app's. */
  async function expectNothingRan(): Promise<void> {
    expect(await caught(ada)).toEqual({ pwned: [], violations: [] })
    expect(await injectedMarkup(ada)).toEqual([])
    expect(world.pageErrors).toEqual([])
  }

  it('seeds the corpus over REST and signs Ada in with traps in her page', async () => {
    ;({ eve, bidiGroup } = await seedHostileContent())
    ada = (
      await world.openApp('ada', {
        initScript: TRAPS,
        openExternal: async (url) => {
          opened.push(url)
        },
        watch: (page) => page.on('websocket', (socket) => socket.on('framesent', (frame) => framesSent.push(String(frame.payload))))
      })
    ).page
    await world.signIn(ada, world.account('Ada'))
    await hostileGroup(ada, GROUPS.markup.name).waitFor()
    await expectNothingRan()
  })

  it('catches a payload that does get into the page: the control for every check below', async () => {
    await ada.evaluate(`alert('control')`)
    const planted = `<img id="control" src="x" onerror="${ran('control')}">`
    await ada.evaluate(`document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(planted)})`)
    await expect.poll(async () => (await caught(ada)).violations.length).toBeGreaterThan(0)
    const { pwned, violations } = await caught(ada)
    expect(pwned).toEqual(['alert: control'])
    for (const violation of violations) expect(violation).toMatch(/^script-src-attr blocked inline/)
    expect(await injectedMarkup(ada)).toEqual(['IMG[onerror]'])
    await ada.evaluate(`document.getElementById('control').remove(); window.__pwned.length = 0; window.__violations.length = 0`)
    await expectNothingRan()
  })

  it('lists the hostile groups and chat without running anything or breaking the list', async () => {
    const list = ada.getByRole('list', { name: 'Conversations' })
    await list.getByRole('button', { name: new RegExp(GROUPS.long.name) }).waitFor()
    await list.getByRole('button', { name: /srekih/ }).waitFor()
    await list.getByRole('button', { name: /^Eve/ }).waitFor()
    expect(await list.getByText(GROUPS.markup.name, { exact: true }).count()).toBe(1)
    await expectNothingRan()
    expect(await layoutProblems(ada, [LIST])).toEqual([])
  })

  it("keeps the words after Eve's right-to-left name in the list reading left to right", async () => {
    const list = ada.getByRole('list', { name: 'Conversations' })
    const inGroup = list.getByRole('button', { name: /srekih/ })
    expect(await inGroup.textContent()).toContain(`${EVE.name}: ${AFTER_EVE_IN_GROUP}`)
    expect(readsLeftToRight(await letterPositions(ada, LIST_ROWS, `${EVE.name}: ${AFTER_EVE_IN_GROUP}`, AFTER_EVE_IN_GROUP))).toBe(true)
    expect(await list.getByRole('button', { name: /^Eve/ }).textContent()).toContain(AFTER_EVE_IN_CHAT)
    expect(readsLeftToRight(await letterPositions(ada, LIST_ROWS, AFTER_EVE_IN_CHAT, AFTER_EVE_IN_CHAT))).toBe(true)
  })

  it('shows every message verbatim as text, with nothing run and the layout whole', async () => {
    await hostileGroup(ada, GROUPS.markup.name).click()
    await ada.getByRole('heading', { name: GROUPS.markup.name, level: 2 }).waitFor()
    for (const message of MESSAGES) {
      const row = messageRow(ada, message.tag)
      await scrollUpTo(ada, row)
      expect(await row.count()).toBe(1)
      expect(await row.textContent()).toContain(message.text)
    }
    await expectNothingRan()
    expect(await layoutProblems(ada, [LIST, HEADER, COMPOSER, MESSAGE_ROWS])).toEqual([])
  })

  it('wraps a 1,000-character word inside its message', async () => {
    const row = messageRow(ada, '[long]')
    await row.scrollIntoViewIfNeeded()
    const fits = await ada.evaluate<{ inside: boolean; lines: number } | null>(`(${WRAPS_IN_PAGE})('[long]')`)
    expect(fits).not.toBeNull()
    expect(fits?.inside).toBe(true)
    expect(fits?.lines).toBeGreaterThan(1)
  })

  it('makes links only of web addresses, and opens them only through the external-link path', async () => {
    const url = ada.url()
    // A link opening a tab or window of its own would go around the external-link path.
    const otherPages: string[] = []
    const notePage = (page: { url(): string }): void => void otherPages.push(page.url())
    ada.context().on('page', notePage)
    for (const [index, target] of NOT_LINKS.entries()) {
      const row = messageRow(ada, `[links-${index}]`)
      await row.scrollIntoViewIfNeeded()
      expect(await row.textContent()).toContain(target)
      // Anything drawn as a link in it is a web address, and clicking anywhere in it goes nowhere.
      for (const link of await row.getByRole('link').all()) {
        const href = (await link.getAttribute('href')) ?? ''
        expect(isWebUrl(href), href).toBe(true)
      }
      // On its tag: the one made of markup also carries a web address, a link of its own.
      await row.locator('p.text').click({ position: { x: 4, y: 6 } })
    }

    const web = messageRow(ada, '[links-web]')
    await web.scrollIntoViewIfNeeded()
    for (const target of WEB_LINKS) {
      const link = web.getByRole('link', { name: target })
      expect(await link.getAttribute('href')).toBe(target)
      await link.click()
      await link.click({ button: 'middle' })
    }
    const bidi = messageRow(ada, '[links-bidi]').getByRole('link')
    await bidi.click()
    const quoted = messageRow(ada, '[links-quote]').getByRole('link')
    expect(await quoted.getAttribute('href')).toBe('https://example.test/')
    await quoted.click()
    const place = messageRow(ada, '[location-0]').getByRole('link', { name: PLACE_NAME })
    expect(await place.getAttribute('href')).toBe(MAP_PAGE)
    await place.click()
    const nowhere = messageRow(ada, '[location-1]')
    await nowhere.getByText('Nowhere at all').waitFor()
    expect(await nowhere.getByRole('link').count()).toBe(0)

    const expected = [
      ...WEB_LINKS.flatMap((target) => [new URL(target).href, new URL(target).href]),
      `https://example.test/${encodeURI(RIGHT_TO_LEFT_OVERRIDE)}gpj.exe`,
      'https://example.test/',
      MAP_PAGE
    ]
    await expect.poll(() => opened.length).toBe(expected.length)
    expect(opened.map((target) => new URL(target).href)).toEqual(expected)
    expect(ada.url()).toBe(url)
    ada.context().off('page', notePage)
    expect(otherPages).toEqual([])

    // The page asked main to open web addresses and nothing else.
    const asked = framesSent
      .map((frame) => JSON.parse(frame) as { channel?: string; payload?: { url?: string } })
      .filter((frame) => frame.channel === 'shell:openExternal')
      .map((frame) => frame.payload?.url ?? '')
    expect(asked.length).toBe(expected.length)
    for (const target of asked) expect(isWebUrl(target), target).toBe(true)
    await expectNothingRan()
  })

  it('shows the poll, its options and voters as text', async () => {
    const poll = ada.getByRole('list', { name: 'Messages' }).getByRole('region', { name: POLL.subject })
    await poll.scrollIntoViewIfNeeded()
    for (const option of POLL.options) expect(await poll.textContent()).toContain(option)
    await poll.getByText('1 vote').first().waitFor()
    await expectNothingRan()
    expect(await layoutProblems(ada, [MESSAGE_ROWS])).toEqual([])

    await ada.getByRole('button', { name: 'Polls', exact: true }).click()
    const panel = ada.getByRole('region', { name: 'Polls' })
    await panel.getByText(POLL.subject, { exact: true }).waitFor()
    await expectNothingRan()
    expect(await layoutProblems(ada, [HEADER, 'section.pane section.panel'])).toEqual([])
    await ada.getByRole('button', { name: 'Polls', exact: true }).click()
  })

  it("shows Group settings and Members with every name as text; Ada's own row keeps \"(you)\" reading left to right", async () => {
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    expect(await settings.getByRole('textbox', { name: 'Group name' }).inputValue()).toBe(GROUPS.markup.name)
    expect(await settings.getByRole('textbox', { name: 'Description' }).inputValue()).toBe(GROUPS.markup.description)
    await expectNothingRan()
    expect(await layoutProblems(ada, ['dialog[open]'])).toEqual([])
    await settings.getByRole('button', { name: 'Close' }).click()

    await ada.getByRole('button', { name: 'Members', exact: true }).click()
    const members = dialog(ada, 'Members')
    const rows = members.getByRole('list', { name: 'Members' }).getByRole('listitem')
    for (const nickname of [NICKNAMES.mallory, NICKNAMES.trudy, NICKNAMES.wil, NICKNAMES.eve]) {
      await rows.filter({ hasText: nickname }).first().waitFor()
    }
    const own = rows.filter({ hasText: '(you)' })
    expect(await own.textContent()).toContain(`${ADA_NICKNAME} (you)`)
    expect(readsLeftToRight(await letterPositions(ada, 'dialog[open] li', `${ADA_NICKNAME} (you)`, '(you)'))).toBe(true)
    await expectNothingRan()
    expect(await layoutProblems(ada, ['dialog[open]'])).toEqual([])
    await members.getByRole('button', { name: 'Close' }).click()
  })

  it("keeps the words after Eve's old name in the nickname line reading left to right", async () => {
    const line = ada.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: `${EVE.name} is now called` })
    await scrollUpTo(ada, line)
    expect(readsLeftToRight(await letterPositions(ada, MESSAGE_ROWS, `${EVE.name} is now called`, 'is now called'))).toBe(true)
  })

  it("shows Mallory's profile, name and bio as text", async () => {
    const row = messageRow(ada, '[m0]')
    await scrollUpTo(ada, row)
    await row.getByRole('button', { name: NICKNAMES.mallory }).click()
    const profile = dialog(ada, MALLORY.name)
    await profile.getByText(MALLORY_BIO, { exact: true }).waitFor()
    await profile.getByRole('button', { name: GROUPS.markup.name }).waitFor()
    await expectNothingRan()
    expect(await layoutProblems(ada, ['dialog[open]'])).toEqual([])
    await profile.getByRole('button', { name: 'Close' }).click()
  })

  it('keeps the layout whole in the group with the longest names and words', async () => {
    await hostileGroup(ada, GROUPS.long.name).click()
    await ada.getByRole('heading', { name: GROUPS.long.name, level: 2 }).waitFor()
    await ada.getByRole('list', { name: 'Messages' }).getByText(longWord(1000, 'L')).waitFor()
    expect(await layoutProblems(ada, [LIST, HEADER, COMPOSER, MESSAGE_ROWS])).toEqual([])

    await ada.getByRole('button', { name: 'Members', exact: true }).click()
    await dialog(ada, 'Members').getByText(NICKNAMES.wil).first().waitFor()
    expect(await layoutProblems(ada, ['dialog[open]'])).toEqual([])
    await dialog(ada, 'Members').getByRole('button', { name: 'Close' }).click()
    await expectNothingRan()
  })

  it("opens the chat with Eve, and the group with the right-to-left name, without anything running", async () => {
    await ada.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Eve/ }).click()
    await ada.getByRole('list', { name: 'Messages' }).getByText(AFTER_EVE_IN_CHAT).waitFor()
    await hostileGroup(ada, 'srekih').click()
    await ada.getByRole('list', { name: 'Messages' }).getByText(AFTER_EVE_IN_GROUP).waitFor()
    expect(await layoutProblems(ada, [LIST, HEADER, COMPOSER, MESSAGE_ROWS])).toEqual([])
    await expectNothingRan()
  })

  it("keeps the words after Eve's right-to-left name reading left to right while she types", async () => {
    const status = ada.getByRole('status').filter({ hasText: 'is typing…' })
    // Said again until it shows: the app subscribes to the group's channel when it opens it.
    await expect.poll(async () => {
      await typing(eve, bidiGroup)
      return status.count()
    }).toBe(1)
    expect(await status.textContent()).toBe(`${EVE.name} is typing…`)
    expect(readsLeftToRight(await letterPositions(ada, '[role="status"]', `${EVE.name} is typing`, 'is typing'))).toBe(true)
    await expectNothingRan()
  })

  it('finds the corpus by search, every snippet drawn as text with only the matched word marked, and nothing run', async () => {
    await hostileGroup(ada, GROUPS.markup.name).click()
    await ada.getByRole('heading', { name: GROUPS.markup.name, level: 2 }).waitFor()
    await ada.keyboard.press('Control+F')
    const box = ada.getByRole('searchbox', { name: 'Search messages' })
    const payloads = MESSAGES.filter((message) => message.text.toLowerCase().includes('onerror'))
    const hits = ada.getByRole('list', { name: 'Search results' }).getByRole('button')
    await expect
      .poll(
        async () => {
          await box.fill('')
          await box.fill('onerror')
          await ada.locator('section[aria-label="Message search results"] .searched').waitFor()
          return (await hits.count()) >= payloads.length
        },
        { timeout: 30_000, interval: 1000 }
      )
      .toBe(true)
    for (const text of await hits.allTextContents()) expect(text.toLowerCase()).toContain('onerror')
    for (const marks of await hits.evaluateAll((buttons) => buttons.map((button) => [...button.querySelectorAll('mark')].map((mark) => mark.textContent?.toLowerCase())))) {
      expect(marks.length).toBeGreaterThan(0)
      expect(new Set(marks)).toEqual(new Set(['onerror']))
    }
    await expectNothingRan()
    expect(await layoutProblems(ada, ['section[aria-label="Message search results"]'])).toEqual([])
    await box.press('Escape')
  })

  it('exports the markup group to an HTML file without a script, which shows every message as text and runs nothing when opened', async () => {
    await hostileGroup(ada, GROUPS.markup.name).click()
    await ada.getByRole('heading', { name: GROUPS.markup.name, level: 2 }).waitFor()
    await ada.getByRole('button', { name: 'Conversation options' }).click()
    await ada.getByRole('menuitem', { name: 'Export conversation…' }).click()
    const exporting = dialog(ada, 'Export conversation')
    const download = ada.waitForEvent('download')
    await exporting.getByRole('button', { name: 'Export' }).click()
    const path = await (await download).path()
    await ada.keyboard.press('Escape')
    const html = await readFile(path, 'utf8')
    expect(html.toLowerCase()).not.toContain('<script')

    // Opened as a file in a page of the same traps: nothing runs, loads or is injected, and every message reads as it was written.
    const file = join(await mkdtemp(join(tmpdir(), 'parley-export-')), 'export.html')
    await writeFile(file, html)
    const opened = await ada.context().newPage()
    try {
      await opened.goto(pathToFileURL(file).href)
      for (const message of MESSAGES) expect(await opened.locator('li').filter({ hasText: message.tag }).first().textContent()).toContain(message.text)
      expect(await caught(opened)).toEqual({ pwned: [], violations: [] })
      expect(await injectedMarkup(opened)).toEqual([])
    } finally {
      await opened.close()
      await rm(dirname(file), { recursive: true, force: true })
    }
    await expectNothingRan()
  })
})
