// Finds web links in message text so they can be shown as links that open in the browser.
import { isWebUrl } from '@shared/web-url'

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; url: string }

const LINK = /\bhttps?:\/\/[^\s<>"]+/gi
// Punctuation that usually ends the sentence, not the link: "see https://x.org/a." or "(https://x.org)".
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', ']', '}'])

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const match of text.matchAll(LINK)) {
    const url = trimTrailing(match[0])
    if (!isWebUrl(url)) continue
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) })
    parts.push({ kind: 'link', text: url, url })
    last = match.index + url.length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}

function trimTrailing(url: string): string {
  let end = url.length
  while (end > 0) {
    const last = url[end - 1] ?? ''
    // A closing parenthesis stays when it closes one inside the link, as in Wikipedia addresses.
    if (last === ')' ? count(url.slice(0, end), '(') >= count(url.slice(0, end), ')') : !TRAILING.has(last)) break
    end--
  }
  return url.slice(0, end)
}

function count(text: string, char: string): number {
  return text.split(char).length - 1
}
