// The emoji the picker offers and the words it finds them by: emoji-picker-element-data's English
// list (Emojibase's names, tags and shortcodes), bundled with the app and read only when the picker
// first opens, so nothing comes from the network and the page starts without its 440 kB.

/** One entry of the bundled list, as much of it as the picker reads. */
export interface EmojiEntry {
  emoji: string
  annotation: string
  group: number
  order: number
  version: number
  tags?: string[]
  shortcodes?: string[]
}

export interface PickableEmoji {
  emoji: string
  /** What a screen reader says for it, and the tooltip. */
  name: string
  /** Its name, tags and shortcodes in lower case, for the search. */
  words: string
}

export interface EmojiGroup {
  name: string
  emoji: PickableEmoji[]
}

/**
 * The newest Emoji version the font the app ships (Noto Color Emoji 2.042, emoji-font.css) draws:
 * a newer emoji would be a box wherever the system has no font for it, so the picker does not offer it.
 */
export const NEWEST_DRAWN_EMOJI_VERSION = 15.1

/**
 * A keycap (#️⃣, *️⃣, 0️⃣ to 9️⃣): its first character is a digit, # or *, which the text font draws
 * so that every number in a message looks like text (emoji-font.css), and the emoji font cannot
 * join it into a keycap then. The picker leaves these twelve out rather than offer a broken one.
 */
export function isKeycap(emoji: string): boolean {
  return /^[#*0-9]/.test(emoji)
}

/** Emojibase's groups by number; 2 is skin tones and hair styles, parts of other emoji rather than emoji to send. */
const GROUP_NAMES: Record<number, string> = {
  0: 'Smileys and emotion',
  1: 'People and body',
  3: 'Animals and nature',
  4: 'Food and drink',
  5: 'Travel and places',
  6: 'Activities',
  7: 'Objects',
  8: 'Symbols',
  9: 'Flags'
}

/** The list in the picker's groups and order, without what the shipped font cannot draw. */
export function emojiGroups(entries: readonly EmojiEntry[]): EmojiGroup[] {
  const groups = new Map<number, EmojiGroup>()
  const sorted = entries.filter((entry) => entry.version <= NEWEST_DRAWN_EMOJI_VERSION && GROUP_NAMES[entry.group] !== undefined && !isKeycap(entry.emoji)).toSorted((a, b) => a.order - b.order)
  for (const entry of sorted) {
    const name = GROUP_NAMES[entry.group] ?? ''
    let group = groups.get(entry.group)
    if (group === undefined) {
      group = { name, emoji: [] }
      groups.set(entry.group, group)
    }
    group.emoji.push({
      emoji: entry.emoji,
      name: entry.annotation,
      words: [entry.annotation, ...(entry.tags ?? []), ...(entry.shortcodes ?? [])].join(' ').toLowerCase()
    })
  }
  return [...groups.entries()].toSorted(([a], [b]) => a - b).map(([, group]) => group)
}

/**
 * The groups holding only the emoji whose words hold every word of the query (`red heart`,
 * `thumbs`, `+1`), or that are the emoji typed; all of them for an empty query.
 */
export function searchEmoji(groups: readonly EmojiGroup[], query: string): EmojiGroup[] {
  const terms = query.trim().toLowerCase().split(/\s+/).filter((term) => term !== '')
  if (terms.length === 0) return [...groups]
  const matches = (emoji: PickableEmoji): boolean => emoji.emoji === query.trim() || terms.every((term) => emoji.words.includes(term))
  return groups.map((group) => ({ name: group.name, emoji: group.emoji.filter(matches) })).filter((group) => group.emoji.length > 0)
}

let loading: Promise<EmojiGroup[]> | null = null

/** The bundled list, read once: a chunk of the app's own, loaded as its scripts are. */
export function loadEmojiGroups(): Promise<EmojiGroup[]> {
  loading ??= import('emoji-picker-element-data/en/emojibase/data.json?raw').then((module) => emojiGroups(JSON.parse(module.default) as EmojiEntry[]))
  // A failed load may be tried again at the next opening.
  loading.catch(() => (loading = null))
  return loading
}
