// The one line a system message shows, written from its event rather than the service's free text.
import type { Message, MessageEvent } from '@shared/messages'
import type { TextPart } from '$lib/given-text'

function listOf(names: string[]): TextPart[] {
  if (names.length <= 1) return [named(names[0] ?? '')]
  const last = names.at(-1) ?? ''
  return [...names.slice(0, -1).flatMap((name, index) => (index === 0 ? [named(name)] : [', ', named(name)])), ' and ', named(last)]
}

function named(name: string): TextPart {
  return name === '' ? 'Someone' : { given: name }
}

function lineFor(event: MessageEvent, fallback: string): TextPart[] {
  switch (event.kind) {
    case 'joined':
      return [named(event.user), ' joined the group']
    case 'rejoined':
      return [named(event.user), ' rejoined the group']
    case 'added':
      return [named(event.by), ' added ', ...listOf(event.users)]
    case 'removed':
      return [named(event.by), ' removed ', named(event.user)]
    case 'left':
      return [named(event.user), ' left the group']
    case 'nicknameChanged':
      return [named(event.from), ' is now called ', named(event.to)]
    case 'pinned':
      // The event names the pinner by id only; the service's text carries the name.
      return [fallback || (event.pinned ? 'A message was pinned' : 'A message was unpinned')]
    case 'pollCreated':
      return ['New poll: ', { given: event.subject }]
    case 'pollFinished':
      return ['The poll "', { given: event.subject }, '" has ended']
  }
}

export function systemLine(message: Message): TextPart[] {
  return message.event === undefined ? [message.text] : lineFor(message.event, message.text)
}
