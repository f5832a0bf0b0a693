import { describe, expect, it } from 'vitest'
import { REACTION_EMOJI } from '@shared/messages'
import { emojiGroups, isKeycap, loadEmojiGroups, NEWEST_DRAWN_EMOJI_VERSION, searchEmoji, type EmojiEntry } from './emoji-list'

const entries: EmojiEntry[] = [
  { emoji: '👍️', annotation: 'thumbs up', group: 1, order: 353, version: 0.6, tags: ['+1', 'good'], shortcodes: ['thumbsup'] },
  { emoji: '😀', annotation: 'grinning face', group: 0, order: 1, version: 1, tags: ['happy'] },
  { emoji: '🫠', annotation: 'melting face', group: 0, order: 70, version: 14 },
  { emoji: '🫨', annotation: 'shaking face', group: 0, order: 71, version: 15 },
  { emoji: '🙂‍↔️', annotation: 'head shaking horizontally', group: 0, order: 72, version: 15.1 },
  { emoji: '🫩', annotation: 'face with bags under eyes', group: 0, order: 73, version: 16 },
  { emoji: '🏻', annotation: 'light skin tone', group: 2, order: 500, version: 1 },
  { emoji: '🧗‍♂️', annotation: 'man climbing', group: 1, order: 400, version: 5 },
  { emoji: '👨‍👩‍👧', annotation: 'family: man, woman, girl', group: 1, order: 401, version: 2 },
  { emoji: '#️⃣', annotation: 'keycap: #', group: 8, order: 1500, version: 0.6 },
  { emoji: '🔟', annotation: 'keycap: 10', group: 8, order: 1512, version: 0.6 }
]

describe('emojiGroups', () => {
  it('orders groups and emoji as the list does, leaving out parts of emoji and what the shipped font cannot draw', () => {
    const groups = emojiGroups(entries)
    expect(groups.map((group) => group.name)).toEqual(['Smileys and emotion', 'People and body', 'Symbols'])
    expect(groups[2]?.emoji.map((emoji) => emoji.emoji)).toEqual(['🔟'])
    expect(groups[0]?.emoji.map((emoji) => emoji.emoji)).toEqual(['😀', '🫠', '🫨', '🙂‍↔️'])
    expect(groups[1]?.emoji.map((emoji) => emoji.emoji)).toEqual(['👍️', '🧗‍♂️', '👨‍👩‍👧'])
    expect(NEWEST_DRAWN_EMOJI_VERSION).toBe(15.1)
  })
})

describe('isKeycap', () => {
  it('knows the twelve keycaps by their first character, and nothing else', () => {
    for (const keycap of ['#️⃣', '*️⃣', '0️⃣', '9️⃣']) expect(isKeycap(keycap), keycap).toBe(true)
    for (const other of ['🔟', '🫠', '🤷‍♀️', '❤️']) expect(isKeycap(other), other).toBe(false)
  })
})

describe('searchEmoji', () => {
  const groups = emojiGroups(entries)

  it('finds emoji by every word typed, in their names, tags and shortcodes, whatever the case', () => {
    expect(searchEmoji(groups, 'Melting').flatMap((group) => group.emoji.map((emoji) => emoji.name))).toEqual(['melting face'])
    expect(searchEmoji(groups, 'face  grin').flatMap((group) => group.emoji.map((emoji) => emoji.emoji))).toEqual(['😀'])
    expect(searchEmoji(groups, '+1').flatMap((group) => group.emoji.map((emoji) => emoji.emoji))).toEqual(['👍️'])
    expect(searchEmoji(groups, 'thumbsup')).toHaveLength(1)
  })

  it('keeps every group for an empty search, and none that has no match', () => {
    expect(searchEmoji(groups, '  ')).toEqual(groups)
    expect(searchEmoji(groups, 'face').map((group) => group.name)).toEqual(['Smileys and emotion'])
    expect(searchEmoji(groups, 'zebra crossing')).toEqual([])
  })
})

describe('the bundled list', () => {
  it('offers every reaction the service accepts, 🫠 and 🫶 among them', async () => {
    const offered = new Set((await loadEmojiGroups()).flatMap((group) => group.emoji.map((emoji) => emoji.emoji.replace(/\uFE0F/g, ''))))
    for (const emoji of REACTION_EMOJI) expect(offered, emoji).toContain(emoji.replace(/\uFE0F/g, ''))
    expect(offered.size).toBeGreaterThan(1850)
  })
})
