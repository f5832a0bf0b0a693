// Every keyboard shortcut of the app, in one list: the Keyboard shortcuts dialog draws it, and the
// app-wide key handler (global-keys.svelte.ts) matches keys against the entries that carry an id, so
// what the sheet says and what the keys do cannot drift apart. Shortcuts that a component handles
// itself (menus, lists, the message box) are listed here as what they are, for the sheet.

/** The shortcuts the app-wide handler acts on; the others are a component's own. */
export type ShortcutId =
  | 'goTo'
  | 'shortcuts'
  | 'nextConversation'
  | 'previousConversation'
  | 'nextUnread'
  | 'previousUnread'
  | 'searchAll'
  | 'searchConversation'

/**
 * A key and its modifiers. `mod` is the platform's command key: Cmd on macOS, Ctrl elsewhere. A
 * modifier left out must not be held, except where `anyShift` says Shift does not matter.
 */
export interface KeyCombo {
  /** `KeyboardEvent.key`, letters in lower case. */
  key: string
  mod?: boolean
  alt?: boolean
  shift?: boolean
}

export interface Shortcut {
  /** What it does, in the user's words. */
  does: string
  /** Any one of these does it (Page Up and Page Down share a line as "a page up or down"). */
  keys: KeyCombo[]
  /** Only for the shortcuts the app-wide handler acts on. */
  id?: ShortcutId
  /** Where it applies, when not anywhere in the app. */
  where?: string
}

export interface ShortcutSection {
  title: string
  shortcuts: Shortcut[]
}

export const SHORTCUT_SECTIONS: readonly ShortcutSection[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      { id: 'goTo', does: 'Go to a conversation or person', keys: [{ key: 'k', mod: true }] },
      { id: 'nextConversation', does: 'Open the next conversation in the list', keys: [{ key: 'ArrowDown', alt: true }] },
      { id: 'previousConversation', does: 'Open the previous conversation in the list', keys: [{ key: 'ArrowUp', alt: true }] },
      { id: 'nextUnread', does: 'Open the next conversation with unread messages', keys: [{ key: 'ArrowDown', alt: true, shift: true }] },
      { id: 'previousUnread', does: 'Open the previous conversation with unread messages', keys: [{ key: 'ArrowUp', alt: true, shift: true }] },
      { id: 'searchAll', does: 'Search all messages', keys: [{ key: 'f', mod: true, shift: true }] },
      { id: 'searchConversation', does: 'Search this conversation', keys: [{ key: 'f', mod: true }] },
      { does: 'Close the open menu, dialog or panel; with none open, clear the search', keys: [{ key: 'Escape' }] },
      { id: 'shortcuts', does: 'Show these keyboard shortcuts', keys: [{ key: '/', mod: true }] }
    ]
  },
  {
    title: 'Conversation list',
    shortcuts: [
      { does: 'Move to the next or previous conversation', keys: [{ key: 'ArrowDown' }, { key: 'ArrowUp' }], where: 'In the list' },
      { does: 'Go from the search to the first conversation', keys: [{ key: 'ArrowDown' }], where: 'In Search conversations' },
      { does: 'Clear the search', keys: [{ key: 'Escape' }], where: 'In Search conversations' }
    ]
  },
  {
    title: 'Message search',
    shortcuts: [
      { does: 'Go from the search to the results, and between them', keys: [{ key: 'ArrowDown' }, { key: 'ArrowUp' }], where: 'In Search messages' },
      { does: 'Open the result at its message', keys: [{ key: 'Enter' }], where: 'On a result' },
      { does: 'Search every conversation again', keys: [{ key: 'Backspace' }], where: 'In an empty Search messages with In: set' },
      { does: 'Clear the search and its filters', keys: [{ key: 'Escape' }], where: 'In Search messages' }
    ]
  },
  {
    title: 'Message history',
    shortcuts: [
      { does: 'Scroll a page up or down', keys: [{ key: 'PageUp' }, { key: 'PageDown' }] },
      { does: 'Go to the oldest messages shown', keys: [{ key: 'Home' }] },
      { does: 'Go to the newest messages', keys: [{ key: 'End' }] },
      { does: 'Move between the actions of a message', keys: [{ key: 'ArrowLeft' }, { key: 'ArrowRight' }, { key: 'Home' }, { key: 'End' }], where: 'In Message actions' }
    ]
  },
  {
    title: 'Message box',
    shortcuts: [
      { does: 'Send the message, or save the edit', keys: [{ key: 'Enter' }] },
      { does: 'Start a new line', keys: [{ key: 'Enter', shift: true }] },
      { does: 'Edit your last message', keys: [{ key: 'ArrowUp' }], where: 'In an empty Message box' },
      { does: 'Cancel the edit', keys: [{ key: 'Escape' }], where: 'While editing a message' }
    ]
  },
  {
    title: 'Menus, tabs and name lists',
    shortcuts: [
      { does: 'Open a menu on its first or last item', keys: [{ key: 'ArrowDown' }, { key: 'ArrowUp' }], where: 'On a menu button' },
      { does: 'Move between items, tabs or names', keys: [{ key: 'ArrowDown' }, { key: 'ArrowUp' }, { key: 'ArrowLeft' }, { key: 'ArrowRight' }] },
      { does: 'Go to the first or last item', keys: [{ key: 'Home' }, { key: 'End' }] },
      { does: 'Choose', keys: [{ key: 'Enter' }, { key: ' ' }] },
      { does: 'Close the menu or list', keys: [{ key: 'Escape' }] }
    ]
  }
]

/** Whether the page runs on macOS, where Cmd stands for Ctrl and Option for Alt. */
export function onMac(platform: string = navigator.platform): boolean {
  // navigator.platform is deprecated but still the one synchronous answer in Chromium and Electron.
  return /^mac/i.test(platform)
}

/** A key as shown, and as a screen reader should say it where the sign alone would be read oddly. */
export interface KeyLabel {
  shown: string
  spoken: string
}

const NAMED_KEYS: Record<string, KeyLabel> = {
  ArrowUp: { shown: '↑', spoken: 'Up arrow' },
  ArrowDown: { shown: '↓', spoken: 'Down arrow' },
  ArrowLeft: { shown: '←', spoken: 'Left arrow' },
  ArrowRight: { shown: '→', spoken: 'Right arrow' },
  PageUp: { shown: 'Page Up', spoken: 'Page Up' },
  PageDown: { shown: 'Page Down', spoken: 'Page Down' },
  ' ': { shown: 'Space', spoken: 'Space' }
}

function plain(word: string): KeyLabel {
  return { shown: word, spoken: word }
}

/** The keys of a combination in the order they are held, named as the platform names them. */
export function comboLabels(combo: KeyCombo, mac: boolean): KeyLabel[] {
  const labels: KeyLabel[] = []
  if (combo.mod === true) labels.push(mac ? { shown: 'Cmd', spoken: 'Command' } : plain('Ctrl'))
  if (combo.alt === true) labels.push(plain(mac ? 'Option' : 'Alt'))
  if (combo.shift === true) labels.push(plain('Shift'))
  labels.push(NAMED_KEYS[combo.key] ?? plain(combo.key.length === 1 ? combo.key.toUpperCase() : combo.key))
  return labels
}

/** A combination as one line of text: "Ctrl+K", "Cmd+/". */
export function comboText(combo: KeyCombo, mac: boolean): string {
  return comboLabels(combo, mac)
    .map((label) => label.shown)
    .join('+')
}

/** Whether the event is this combination, with no other modifier held. */
export function comboMatches(event: KeyboardEvent, combo: KeyCombo, mac: boolean): boolean {
  const command = mac ? event.metaKey : event.ctrlKey
  // Ctrl on macOS and the Windows key elsewhere are never part of an app shortcut.
  const other = mac ? event.ctrlKey : event.metaKey
  if (other || command !== (combo.mod === true) || event.altKey !== (combo.alt === true) || event.shiftKey !== (combo.shift === true)) return false
  return keyOf(event) === combo.key
}

/**
 * The event's key as the list writes it. A letter outside the Latin alphabet (a Cyrillic layout,
 * or Option on macOS turning K into ˚) is read from the key's place on the keyboard instead.
 */
function keyOf(event: KeyboardEvent): string {
  if (event.key.length !== 1) return event.key
  if (/^Key[A-Z]$/.test(event.code) && !/^[a-z]$/i.test(event.key)) return event.code.slice(3).toLowerCase()
  return event.key.toLowerCase()
}

/** The entry the app-wide handler acts on for this id. */
export function shortcutById(id: ShortcutId): Shortcut {
  for (const section of SHORTCUT_SECTIONS) {
    const found = section.shortcuts.find((shortcut) => shortcut.id === id)
    if (found !== undefined) return found
  }
  throw new Error(`no shortcut ${id}`)
}
