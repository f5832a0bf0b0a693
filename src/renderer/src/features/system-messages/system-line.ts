// The one line a system message shows, written from its event rather than the service's free text.
import type { Message, MessageEvent } from '../../../../shared/domain'

function listOf(names: string[]): string {
  if (names.length <= 1) return names[0] ?? 'Someone'
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`
}

function named(name: string): string {
  return name === '' ? 'Someone' : name
}

function lineFor(event: MessageEvent, fallback: string): string {
  switch (event.kind) {
    case 'joined':
      return `${named(event.user)} joined the group`
    case 'rejoined':
      return `${named(event.user)} rejoined the group`
    case 'added':
      return `${named(event.by)} added ${listOf(event.users.map(named))}`
    case 'removed':
      return `${named(event.by)} removed ${named(event.user)}`
    case 'left':
      return `${named(event.user)} left the group`
    case 'nicknameChanged':
      return `${named(event.from)} is now called ${named(event.to)}`
    case 'pinned':
      // The event names the pinner by id only; the service's text carries the name.
      return fallback || (event.pinned ? 'A message was pinned' : 'A message was unpinned')
    case 'pollCreated':
      return `New poll: ${event.subject}`
    case 'pollFinished':
      return `The poll "${event.subject}" has ended`
  }
}

export function systemLine(message: Message): string {
  return message.event === undefined ? message.text : lineFor(message.event, message.text)
}
