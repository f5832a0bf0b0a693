import { render, screen } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { MessageEvent } from '@shared/messages'
import { message } from '../../testing/fake-api'
import SystemLine from './SystemLine.svelte'

function show(event: MessageEvent | undefined, text = 'free text from the service'): void {
  const base = message({ id: '1', conversationId: 'g1', text, system: true })
  render(SystemLine, { message: event === undefined ? base : { ...base, event } })
}

/** The line as read, names and all: each name is an element of its own inside it. */
function line(text: string): HTMLElement {
  return screen.getByText((_, element) => element?.tagName === 'SPAN' && element.textContent === text)
}

describe('SystemLine', () => {
  it.each<[MessageEvent, string]>([
    [{ kind: 'joined', user: 'Alan' }, 'Alan joined the group'],
    [{ kind: 'rejoined', user: 'Alan' }, 'Alan rejoined the group'],
    [{ kind: 'added', users: ['Alan', 'Ada', 'Grace'], by: 'Linus' }, 'Linus added Alan, Ada and Grace'],
    [{ kind: 'removed', user: 'Alan', by: 'Grace' }, 'Grace removed Alan'],
    [{ kind: 'left', user: 'Alan' }, 'Alan left the group'],
    [{ kind: 'nicknameChanged', from: 'Alan', to: 'Al' }, 'Alan is now called Al'],
    [{ kind: 'pollFinished', pollId: '1', subject: 'Lunch?' }, 'The poll "Lunch?" has ended']
  ])('writes its own line for %o', (event, text) => {
    show(event)
    expect(line(text)).toBeInTheDocument()
    expect(screen.queryByText('free text from the service')).not.toBeInTheDocument()
  })

  it("keeps the service's text for a pin, which is where the pinner's name is", () => {
    show({ kind: 'pinned', pinned: true }, 'Grace pinned a message.')
    expect(screen.getByText('Grace pinned a message.')).toBeInTheDocument()
  })

  it("shows the service's text for an event it does not know", () => {
    show(undefined, 'Something happened.')
    expect(screen.getByText('Something happened.')).toBeInTheDocument()
  })

  it('names nobody as Someone rather than leaving a gap', () => {
    show({ kind: 'joined', user: '' })
    expect(line('Someone joined the group')).toBeInTheDocument()
  })

  it('isolates every name and subject from the words around it, so an override left open in one turns nothing else around', () => {
    const override = '\u202E'
    show({ kind: 'added', users: [`Eve ${override}gnp.exe`, 'Ada'], by: `${override}Mallory` })
    const shown = line(`${override}Mallory added Eve ${override}gnp.exe and Ada`)
    const isolated = [...shown.querySelectorAll('bdi')].map((bdi) => bdi.textContent)
    expect(isolated).toEqual([`${override}Mallory`, `Eve ${override}gnp.exe`, 'Ada'])
    for (const words of [' added ', ' and ']) expect([...shown.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent === words)).toBe(true)
  })

  it('isolates a poll subject, which a person wrote too', () => {
    show({ kind: 'pollFinished', pollId: '1', subject: '\u202ELunch?' })
    expect(line('The poll "\u202ELunch?" has ended').querySelector('bdi')?.textContent).toBe('\u202ELunch?')
  })
})
