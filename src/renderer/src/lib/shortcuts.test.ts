import { describe, expect, it } from 'vitest'
import { comboMatches, comboText, onMac, SHORTCUT_SECTIONS, shortcutById, type ShortcutId } from './shortcuts'

function key(key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  return new KeyboardEvent('keydown', { key, ...init })
}

describe('shortcuts', () => {
  it('names the command key as the platform does: Cmd and Option on macOS, Ctrl and Alt elsewhere', () => {
    expect(comboText(shortcutById('goTo').keys[0] ?? { key: '' }, true)).toBe('Cmd+K')
    expect(comboText(shortcutById('goTo').keys[0] ?? { key: '' }, false)).toBe('Ctrl+K')
    expect(comboText(shortcutById('shortcuts').keys[0] ?? { key: '' }, false)).toBe('Ctrl+/')
    expect(comboText(shortcutById('nextUnread').keys[0] ?? { key: '' }, true)).toBe('Option+Shift+↓')
    expect(comboText(shortcutById('previousConversation').keys[0] ?? { key: '' }, false)).toBe('Alt+↑')
    expect(onMac('MacIntel')).toBe(true)
    expect(onMac('Linux x86_64')).toBe(false)
    expect(onMac('Win32')).toBe(false)
  })

  it('matches the command key of the platform and no other modifier', () => {
    const goTo = shortcutById('goTo').keys[0] ?? { key: '' }
    expect(comboMatches(key('k', { ctrlKey: true, code: 'KeyK' }), goTo, false)).toBe(true)
    expect(comboMatches(key('k', { metaKey: true, code: 'KeyK' }), goTo, true)).toBe(true)
    // Ctrl+K on macOS is the text field's own (delete to the end of the line).
    expect(comboMatches(key('k', { ctrlKey: true, code: 'KeyK' }), goTo, true)).toBe(false)
    expect(comboMatches(key('k', { metaKey: true, code: 'KeyK' }), goTo, false)).toBe(false)
    expect(comboMatches(key('K', { ctrlKey: true, shiftKey: true, code: 'KeyK' }), goTo, false)).toBe(false)
    expect(comboMatches(key('k', { code: 'KeyK' }), goTo, false)).toBe(false)
  })

  it('reads a letter from its place on the keyboard where the layout writes another alphabet', () => {
    const goTo = shortcutById('goTo').keys[0] ?? { key: '' }
    expect(comboMatches(key('л', { ctrlKey: true, code: 'KeyK' }), goTo, false)).toBe(true)
  })

  it('tells the arrows with Alt from those with Alt and Shift', () => {
    const next = shortcutById('nextConversation').keys[0] ?? { key: '' }
    const nextUnread = shortcutById('nextUnread').keys[0] ?? { key: '' }
    expect(comboMatches(key('ArrowDown', { altKey: true }), next, false)).toBe(true)
    expect(comboMatches(key('ArrowDown', { altKey: true, shiftKey: true }), next, false)).toBe(false)
    expect(comboMatches(key('ArrowDown', { altKey: true, shiftKey: true }), nextUnread, false)).toBe(true)
    expect(comboMatches(key('ArrowDown'), next, false)).toBe(false)
  })

  it('lists each shortcut the app-wide handler acts on once, and the message search shortcuts with them', () => {
    const ids = SHORTCUT_SECTIONS.flatMap((section) => section.shortcuts).flatMap((shortcut) => (shortcut.id === undefined ? [] : [shortcut.id]))
    const all: ShortcutId[] = ['goTo', 'shortcuts', 'nextConversation', 'previousConversation', 'nextUnread', 'previousUnread', 'searchAll', 'searchConversation']
    expect(ids.toSorted()).toEqual(all.toSorted())
    const anywhere = SHORTCUT_SECTIONS[0]?.shortcuts ?? []
    expect(anywhere.find((shortcut) => shortcut.does === 'Search all messages')?.keys).toEqual([{ key: 'f', mod: true, shift: true }])
    expect(anywhere.find((shortcut) => shortcut.does === 'Search this conversation')?.keys).toEqual([{ key: 'f', mod: true }])
  })
})
