// A conversation's history as one HTML file a browser opens offline, years later: every message
// with its time, sender, text, reactions, edits, deletion, poll and pictures (embedded as data:
// URLs), readable in light and dark, right-to-left text shown right. Everything in it was written by
// other people, so every piece of text is escaped, and the file carries no script at all: its own
// Content-Security-Policy forbids any, should a browser ever read something here as markup.
import type { Conversation } from '@shared/conversations'
import type { Attachment, Message } from '@shared/messages'
import type { Poll } from '@shared/polls'

/** A picture as the file embeds it: a data: URL; null when it could not be had. */
export type EmbeddedPicture = string | null

export interface HtmlExportContext {
  conversation: Conversation
  /** Unix milliseconds of the export. */
  exportedAt: number
  /** The conversation's polls by id, for the messages that carry one. */
  polls: ReadonlyMap<string, Poll>
}

/** `&`, `<`, `>`, `"` and `'` as entities: safe as element text and as a quoted attribute's value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character)
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1d21; --muted: #5b616b; --line: #dde1e6; --chip: #eef1f4; --accent: #1f5fbf; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181c; --fg: #e7e9ec; --muted: #a2a8b1; --line: #30343b; --chip: #262a30; --accent: #8ab4f8; } }
body { margin: 0 auto; max-width: 52rem; padding: 1.5rem; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, sans-serif; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 0.25rem; overflow-wrap: anywhere; }
header p, footer, .meta, .edited, .system, .deleted { color: var(--muted); }
ol { list-style: none; margin: 0; padding: 0; }
ol > li { padding: 0.5rem 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.meta { font-size: 0.85rem; }
.sender { font-weight: 600; color: var(--fg); unicode-bidi: isolate; }
.text { margin: 0.2rem 0 0; white-space: pre-wrap; }
.system .text, .deleted .text { font-style: italic; }
img { display: block; max-width: 100%; max-height: 32rem; margin-top: 0.4rem; border-radius: 6px; }
.reactions { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0.3rem 0 0; padding: 0; }
.reactions span { background: var(--chip); border-radius: 999px; padding: 0 0.5rem; }
.poll { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 0.7rem; margin-top: 0.4rem; }
.poll ul { margin: 0.2rem 0 0; padding-left: 1.2rem; }
footer { margin-top: 1rem; font-size: 0.85rem; }
`

/** Everything before the first message. */
export function htmlHead(context: HtmlExportContext): string {
  const name = escapeHtml(context.conversation.name)
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    // No script, no request anywhere: pictures are in the file, and so is the style.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">\n` +
    '<meta name="color-scheme" content="light dark">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${name}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n` +
    `<header><h1 dir="auto">${name}</h1><p>Exported ${escapeHtml(new Date(context.exportedAt).toISOString())}</p></header>\n<ol>\n`
  )
}

/** Everything after the last message. */
export function htmlTail(messages: number): string {
  return `</ol>\n<footer>${messages} ${messages === 1 ? 'message' : 'messages'}</footer>\n</body>\n</html>\n`
}

const TIME = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })

function time(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000)
  if (Number.isNaN(date.getTime())) return ''
  return `<time datetime="${date.toISOString()}">${escapeHtml(TIME.format(date))} UTC</time>`
}

/** One message as a list item; `pictures` holds its image attachments' embedded copies, in order. */
export function htmlMessage(message: Message, pictures: readonly EmbeddedPicture[], context: HtmlExportContext): string {
  const kind = message.deleted ? 'deleted' : message.system ? 'system' : 'message'
  let html = `<li id="m${escapeHtml(message.id)}" class="${kind}"><div class="meta">`
  if (!message.system) html += `<span class="sender" dir="auto">${escapeHtml(message.senderName)}</span> `
  html += time(message.createdAt)
  if (message.editedAt !== undefined && !message.deleted) html += ` <span class="edited">· edited ${time(message.editedAt)}</span>`
  if (message.pinnedAt !== undefined) html += ' <span class="edited">· pinned</span>'
  html += '</div>'
  if (message.deleted) return `${html}<p class="text">This message was deleted.</p></li>\n`
  if (message.text !== '') html += `<p class="text" dir="auto">${escapeHtml(message.text)}</p>`
  let picture = 0
  for (const attachment of message.attachments) {
    if (attachment.type === 'image') {
      const embedded = pictures[picture] ?? null
      picture += 1
      html += embedded === null ? '<p class="edited">A picture that could not be saved.</p>' : `<img alt="Picture from ${escapeHtml(message.senderName)}" src="${embedded}">`
    } else html += attachmentHtml(attachment, context)
  }
  const reactions = message.reactions ?? []
  if (reactions.length > 0) {
    html += `<p class="reactions">${reactions.map((reaction) => `<span>${escapeHtml(reaction.emoji)} ${reaction.userIds.length}</span>`).join('')}</p>`
  }
  return `${html}</li>\n`
}

function attachmentHtml(attachment: Exclude<Attachment, { type: 'image' }>, context: HtmlExportContext): string {
  switch (attachment.type) {
    case 'imageLink':
      return `<p class="edited">A picture at ${escapeHtml(attachment.url)}</p>`
    case 'location':
      return `<p class="text" dir="auto">📍 ${escapeHtml(attachment.name)} (${escapeHtml(attachment.lat)}, ${escapeHtml(attachment.lng)})</p>`
    case 'emoji':
      return ''
    case 'poll': {
      const poll = context.polls.get(attachment.pollId)
      if (poll === undefined) return '<div class="poll">A poll.</div>'
      const options = poll.options.map((option) => `<li dir="auto">${escapeHtml(option.title)}: ${option.votes} ${option.votes === 1 ? 'vote' : 'votes'}</li>`).join('')
      return `<div class="poll"><strong dir="auto">${escapeHtml(poll.subject)}</strong>${poll.ended ? ' (ended)' : ''}<ul>${options}</ul></div>`
    }
  }
}

/** A picture's bytes as a data: URL (its type already checked to be a picture's). */
export function dataUrl(contentType: string, bytes: Uint8Array): string {
  return `data:${contentType};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`
}
