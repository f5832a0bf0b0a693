// WCAG AA contrast of the app's controls in each of their states, read from the colours Chromium
// computes: each control is hovered and focused as a person would (the mouse, the keyboard) and
// pressed by forcing :active through the DevTools protocol, which has no side effects; a scan of
// the resting page cannot see the other states. Text needs 4.5:1 (3:1 when large), icons and the
// focus ring 3:1 (https://www.w3.org/TR/WCAG22/#contrast-minimum, #non-text-contrast).
import type { CDPSession, Page } from 'playwright-core'

/** An sRGB colour: channels 0–255, alpha 0–1. */
export interface Rgba {
  r: number
  g: number
  b: number
  a: number
}

/** What one element adds to the pixels drawn inside it. */
interface Layer {
  background: string
  backgroundImage: string
  opacity: number
  filter: string
}

/** A piece of a control a person must read: text, or an icon. */
interface Ink {
  kind: 'text' | 'icon'
  what: string
  color: string
  fontSize: number
  fontWeight: number
  /** From the root element down to the element that draws it. */
  layers: Layer[]
}

interface ControlSample {
  disabled: boolean
  /** Whether the keyboard can reach it (an option of a combobox is reached through the box). */
  focusable: boolean
  focusVisible: boolean
  inks: Ink[]
  /** The focus ring, if one is drawn, and what lies behind it. */
  outline: { color: string; layers: Layer[] } | null
  boxShadow: string
}

/** Marks every control drawn inside `root` with `data-contrast-probe`; one of each look is enough. */
const MARK_CONTROLS_IN_PAGE = `(root) => {
  for (const marked of document.querySelectorAll('[data-contrast-probe]')) marked.removeAttribute('data-contrast-probe')
  const scope = document.querySelector(root)
  if (scope === null) return []
  const selector = 'button, a[href], select, textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]):not([type=range]), [role=button], [role=link], [role=tab], [role=menuitem], [role=menuitemradio], [role=menuitemcheckbox], [role=option]'
  const seen = new Set()
  const marked = []
  for (const control of scope.querySelectorAll(selector)) {
    if (!control.checkVisibility({ visibilityProperty: true })) continue
    const box = control.getBoundingClientRect()
    if (box.width <= 1 || box.height <= 1) continue
    const text = (control.getAttribute('aria-label') || control.textContent || control.getAttribute('placeholder') || control.getAttribute('title') || '').replace(/\\s+/g, ' ').trim()
    const look = control.tagName + '|' + control.className + '|' + control.getAttribute('role') + '|' + control.disabled + '|' + text.replace(/\\d+/g, '#')
    if (seen.has(look)) continue
    seen.add(look)
    const id = String(marked.length)
    control.setAttribute('data-contrast-probe', id)
    marked.push({ id, label: (control.getAttribute('role') || control.tagName.toLowerCase()) + ' "' + text.slice(0, 48) + '"' })
  }
  return marked
}`

/** Whether a person can reach the marked control where it is drawn, rather than something over it (a modal's backdrop). */
const REACHABLE_IN_PAGE = `(id) => {
  const control = document.querySelector('[data-contrast-probe="' + id + '"]')
  if (control === null) return false
  const box = control.getBoundingClientRect()
  const x = box.left + box.width / 2
  const y = box.top + box.height / 2
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false
  return document.elementsFromPoint(x, y).some((hit) => control.contains(hit))
}`

/** The colours of one marked control as it is drawn now. */
const SAMPLE_IN_PAGE = `(id) => {
  const control = document.querySelector('[data-contrast-probe="' + id + '"]')
  if (control === null) return null
  const layersOf = (element) => {
    const chain = []
    for (let at = element; at !== null; at = at.parentElement) chain.unshift(at)
    return chain.map((at) => {
      const style = getComputedStyle(at)
      return { background: style.backgroundColor, backgroundImage: style.backgroundImage, opacity: Number(style.opacity), filter: style.filter }
    })
  }
  const shown = (element) => {
    if (!element.checkVisibility({ visibilityProperty: true })) return false
    const box = element.getBoundingClientRect()
    return box.width > 1 && box.height > 1
  }
  const inks = []
  const style = getComputedStyle(control)
  const field = control.matches('input, textarea, select')
  if (field) {
    const value = control.tagName === 'SELECT' ? (control.selectedOptions[0]?.textContent ?? '') : control.value
    const placeholder = control.getAttribute('placeholder')
    if (value.trim() !== '') inks.push({ kind: 'text', what: value.slice(0, 30), color: style.color, fontSize: parseFloat(style.fontSize), fontWeight: Number(style.fontWeight), layers: layersOf(control) })
    else if (placeholder) inks.push({ kind: 'text', what: 'placeholder "' + placeholder + '"', color: getComputedStyle(control, '::placeholder').color, fontSize: parseFloat(style.fontSize), fontWeight: Number(style.fontWeight), layers: layersOf(control) })
  } else {
    const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const owner = node.parentElement
      if (owner === null || node.data.trim() === '' || !shown(owner)) continue
      const own = getComputedStyle(owner)
      inks.push({ kind: 'text', what: node.data.trim().slice(0, 30), color: own.color, fontSize: parseFloat(own.fontSize), fontWeight: Number(own.fontWeight), layers: layersOf(owner) })
    }
    for (const icon of control.querySelectorAll('svg')) {
      if (!shown(icon)) continue
      const shape = icon.querySelector('path, circle, rect, line, polyline, polygon, ellipse') ?? icon
      const drawn = getComputedStyle(shape)
      const color = drawn.stroke !== 'none' ? drawn.stroke : drawn.fill
      inks.push({ kind: 'icon', what: 'icon', color, fontSize: 0, fontWeight: 0, layers: layersOf(icon) })
    }
  }
  const ringStyle = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
  const behindRing = parseFloat(style.outlineOffset) >= 0 && control.parentElement !== null ? control.parentElement : control
  return {
    disabled: control.matches(':disabled'),
    focusable: control.matches('button, a[href], input, select, textarea, [tabindex]'),
    focusVisible: control.matches(':focus-visible'),
    inks,
    outline: ringStyle ? { color: style.outlineColor, layers: layersOf(behindRing) } : null,
    boxShadow: style.boxShadow
  }
}`

const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 }

/** `rgb()`, `rgba()` and `color(srgb …)`, the forms Chromium computes colours to here. */
export function parseColour(text: string): Rgba {
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(text.trim())
  if (rgb !== null) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]), a: alpha(rgb[4]) }
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+%?))?\s*\)$/.exec(text.trim())
  if (srgb !== null) return { r: Number(srgb[1]) * 255, g: Number(srgb[2]) * 255, b: Number(srgb[3]) * 255, a: alpha(srgb[4]) }
  throw new Error(`a colour this helper cannot read: ${text}`)
}

function alpha(text: string | undefined): number {
  if (text === undefined) return 1
  return text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text)
}

/** `top` drawn over `bottom` (source-over). */
function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a + bottom.a * (1 - top.a)
  if (a === 0) return TRANSPARENT
  const mix = (t: number, b: number): number => (t * top.a + b * bottom.a * (1 - top.a)) / a
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a }
}

/**
 * The colour a person sees where `ink` (or nothing) is drawn inside the innermost layer: each
 * element's background under its content, each element's opacity applied to all of it, and the
 * root's background as the canvas under everything.
 */
function seen(layers: Layer[], ink: Rgba | null): Rgba {
  let group = ink ?? TRANSPARENT
  for (const layer of [...layers].reverse()) {
    group = brightened(over(group, parseColour(layer.background)), layer.filter)
    group = { ...group, a: group.a * layer.opacity }
  }
  // A root with no background is drawn on the browser's white canvas.
  return over(group, { r: 255, g: 255, b: 255, a: 1 })
}

/** `brightness()` scales each channel in sRGB, as filter functions work (https://drafts.fxtf.org/filter-effects/#brightnessEquivalent). */
function brightened(colour: Rgba, filter: string): Rgba {
  if (filter === 'none') return colour
  const factor = Number(/^brightness\(([\d.]+)\)$/.exec(filter)?.[1])
  const scale = (channel: number): number => Math.min(255, channel * factor)
  return { r: scale(colour.r), g: scale(colour.g), b: scale(colour.b), a: colour.a }
}

function luminance({ r, g, b }: Rgba): number {
  const linear = (channel: number): number => {
    const c = channel / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

function hex({ r, g, b }: Rgba): string {
  return '#' + [r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')
}

/** Why this drawing's colours cannot be read off its computed style, if they cannot. */
function unreadable(layers: Layer[]): string | null {
  const layer = layers.find((candidate) => !/^(none|brightness\([\d.]+\))$/.test(candidate.filter) || candidate.backgroundImage !== 'none')
  if (layer === undefined) return null
  return layer.filter !== 'none' ? `drawn through filter ${layer.filter}` : `drawn over background-image ${layer.backgroundImage}`
}

/** What in one sample falls short of AA, each problem one line. */
function shortfalls(sample: ControlSample, where: string): string[] {
  const problems: string[] = []
  for (const ink of sample.inks) {
    const reason = unreadable(ink.layers)
    if (reason !== null) {
      problems.push(`${where}: ${ink.what} is ${reason}, so its contrast cannot be known`)
      continue
    }
    const opacity = ink.layers.reduce((product, layer) => product * layer.opacity, 1)
    // Not shown in this state (a row's toolbar until the row is hovered): nothing to read.
    if (opacity === 0) continue
    const inkColour = parseColour(ink.color)
    const large = ink.fontSize >= 24 || (ink.fontSize >= 18.66 && ink.fontWeight >= 700)
    const needed = ink.kind === 'icon' || large ? 3 : 4.5
    const fore = seen(ink.layers, inkColour)
    const back = seen(ink.layers, null)
    const ratio = contrastRatio(fore, back)
    if (ratio < needed) problems.push(`${where}: "${ink.what}" ${ratio.toFixed(2)}:1, ${hex(fore)} on ${hex(back)} (needs ${needed})`)
  }
  return problems
}

export type Theme = 'light' | 'dark'

export interface Scene {
  /** A name for the lines that report shortfalls. */
  name: string
  /** A CSS selector for what holds the controls; the whole page by default. */
  root?: string
  /**
   * Whether to scroll to controls out of view (in a dialog, say). Not in the history, where
   * scrolling up loads older messages and moves the rows under the mouse.
   */
  scroll?: boolean
}

/**
 * Every control the scene shows, in each state a person can put it in: at rest, hovered, pressed
 * and focused from the keyboard (a disabled control: at rest and hovered). Returns one line per
 * shortfall, naming the theme, the scene, the control and the state.
 */
export async function contrastShortfalls(page: Page, cdp: CDPSession, theme: Theme, { name: scene, root = 'body', scroll = true }: Scene): Promise<string[]> {
  await page.emulateMedia({ colorScheme: theme })
  const controls = await page.evaluate<{ id: string; label: string }[]>(`(${MARK_CONTROLS_IN_PAGE})(${JSON.stringify(root)})`)
  if (controls.length === 0) return [`${theme} ${scene}: no control in view inside ${root}`]
  const problems: string[] = []
  const sample = async (id: string): Promise<ControlSample | null> => page.evaluate<ControlSample | null>(`(${SAMPLE_IN_PAGE})(${JSON.stringify(id)})`)
  for (const { id, label } of controls) {
    const control = page.locator(`[data-contrast-probe="${id}"]`)
    const where = (state: string): string => `${theme} ${scene}: ${label} ${state}`
    const check = async (state: string): Promise<ControlSample | null> => {
      const drawn = await sample(id)
      if (drawn === null) problems.push(`${where(state)}: gone from the page`)
      else problems.push(...shortfalls(drawn, where(state)))
      return drawn
    }

    // At rest: in view, the mouse in a corner of the window, over nothing.
    if (scroll) {
      try {
        await control.scrollIntoViewIfNeeded({ timeout: 5_000 })
      } catch {
        problems.push(`${where('at rest')}: cannot be scrolled into view`)
        continue
      }
    }
    if (!(await page.evaluate<boolean>(`(${REACHABLE_IN_PAGE})(${JSON.stringify(id)})`))) continue
    await page.mouse.move(1, 1)
    const rest = await check('at rest')
    if (rest === null) continue

    try {
      await control.hover({ timeout: 5_000 })
    } catch {
      problems.push(`${where('hovered')}: the mouse cannot reach it`)
      continue
    }
    await check('hovered')

    if (rest.disabled) continue

    const nodeId = await nodeIdOf(cdp, `[data-contrast-probe="${id}"]`)
    await cdp.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: ['hover', 'active'] })
    await check('pressed')
    await cdp.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: [] })
    if (!rest.focusable) continue

    // A key press first, so focus that follows shows its ring as focus from the keyboard does.
    await page.mouse.move(1, 1)
    await page.keyboard.press('Shift')
    await control.focus()
    const focused = await check('focused')
    if (focused === null) continue
    if (!focused.focusVisible) problems.push(`${where('focused')}: does not match :focus-visible`)
    else if (focused.outline === null && focused.boxShadow === 'none') problems.push(`${where('focused')}: no focus ring`)
    else if (focused.outline !== null) {
      const ring = seen(focused.outline.layers, parseColour(focused.outline.color))
      const behind = seen(focused.outline.layers, null)
      const ratio = contrastRatio(ring, behind)
      if (ratio < 3) problems.push(`${where('focused')}: focus ring ${ratio.toFixed(2)}:1, ${hex(ring)} on ${hex(behind)} (needs 3)`)
    }
  }
  await page.evaluate(`document.querySelectorAll('[data-contrast-probe]').forEach((marked) => marked.removeAttribute('data-contrast-probe'))`)
  await page.mouse.move(1, 1)
  return problems
}

async function nodeIdOf(cdp: CDPSession, selector: string): Promise<number> {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 })
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
  if (nodeId === 0) throw new Error(`nothing matches ${selector}`)
  return nodeId
}

/** A DevTools session on the page with what `contrastShortfalls` needs turned on. */
export async function contrastSession(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  return cdp
}
