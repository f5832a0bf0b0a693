// The app-wide keys, in one place: the main layout makes one GlobalKeys, listens on the window with
// it once, and provides it to the components below. It acts on the shortcuts of shortcuts.ts that
// carry an id, and on Escape as the last word: menus, name lists, the message box and the delete
// question handle their own keys first (and say so with preventDefault), a modal dialog is closed
// by the browser, and what is left closes the topmost escape layer: an open panel, then a search.
import { getContext, setContext } from 'svelte'
import { comboMatches, onMac, SHORTCUT_SECTIONS, type ShortcutId } from './shortcuts'

export interface GlobalKeyActions {
  goTo: () => void
  showShortcuts: () => void
  /** Opens the next (1) or previous (-1) conversation of the list, or of those with unread messages. */
  step: (direction: 1 | -1, unreadOnly: boolean) => void
  /** Focuses Search messages, searching the open conversation only when `inOpenConversation`. */
  searchMessages: (inOpenConversation: boolean) => void
}

/**
 * What Escape closes when nothing nearer took it, in this order: a panel beside the history (the
 * topmost thing open outside a dialog), then a search's text.
 */
export type EscapeRank = 'panel' | 'search'
const ESCAPE_ORDER: readonly EscapeRank[] = ['panel', 'search']

/** Closes what it stands for, and says whether there was anything to close. */
export type EscapeLayer = () => boolean

export class GlobalKeys {
  readonly mac: boolean
  readonly #actions: GlobalKeyActions
  readonly #layers: { rank: EscapeRank; close: EscapeLayer }[] = []
  readonly #bound = SHORTCUT_SECTIONS.flatMap((section) => section.shortcuts).filter((shortcut) => shortcut.id !== undefined)

  constructor(actions: GlobalKeyActions, mac: boolean = onMac()) {
    this.#actions = actions
    this.mac = mac
  }

  /** Listens on the window (bubbling, so everything nearer the focus has had the key first) until the returned stop. */
  listen(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
    const onKeydown = (event: KeyboardEvent): void => this.handle(event)
    target.addEventListener('keydown', onKeydown)
    return () => target.removeEventListener('keydown', onKeydown)
  }

  /** Adds what Escape closes at this rank, newest first within it; the returned function removes it. */
  addEscapeLayer(rank: EscapeRank, close: EscapeLayer): () => void {
    const layer = { rank, close }
    this.#layers.push(layer)
    return () => {
      const index = this.#layers.indexOf(layer)
      if (index !== -1) this.#layers.splice(index, 1)
    }
  }

  handle(event: KeyboardEvent): void {
    // Taken nearer the focus, or part of an input method's composition.
    if (event.defaultPrevented || event.isComposing) return
    // A modal dialog makes the page behind it inert: its keys are its own, and Escape closes it.
    if (document.querySelector('dialog[open]') !== null) return
    if (event.key === 'Escape') {
      if (this.#escape()) event.preventDefault()
      return
    }
    const shortcut = this.#bound.find((candidate) => candidate.keys.some((combo) => comboMatches(event, combo, this.mac)))
    if (shortcut?.id === undefined) return
    event.preventDefault()
    this.#act(shortcut.id)
  }

  #act(id: ShortcutId): void {
    switch (id) {
      case 'goTo':
        return this.#actions.goTo()
      case 'shortcuts':
        return this.#actions.showShortcuts()
      case 'nextConversation':
        return this.#actions.step(1, false)
      case 'previousConversation':
        return this.#actions.step(-1, false)
      case 'nextUnread':
        return this.#actions.step(1, true)
      case 'previousUnread':
        return this.#actions.step(-1, true)
      case 'searchAll':
        return this.#actions.searchMessages(false)
      case 'searchConversation':
        return this.#actions.searchMessages(true)
    }
  }

  #escape(): boolean {
    for (const rank of ESCAPE_ORDER) {
      const layers = this.#layers.filter((layer) => layer.rank === rank).reverse()
      if (layers.some((layer) => layer.close())) return true
    }
    return false
  }
}

const KEY = Symbol('global-keys')

export function provideGlobalKeys(keys: GlobalKeys): void {
  setContext(KEY, keys)
}

/**
 * For a component's setup: Escape runs `close` at this rank while the component lives. Where no
 * layout provides the keys (a component tested alone), nothing is registered.
 */
export function escapeLayer(rank: EscapeRank, close: EscapeLayer): void {
  const keys = getContext<GlobalKeys | undefined>(KEY)
  if (keys === undefined) return
  $effect(() => keys.addEscapeLayer(rank, close))
}
