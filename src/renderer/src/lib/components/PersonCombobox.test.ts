import { fireEvent, render, screen, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import type { Person } from '@shared/people'
import PersonCombobox from './PersonCombobox.svelte'

const grace: Person = { id: 'u2', name: 'Grace Hopper', avatarUrl: null }
const rene: Person = { id: 'u3', name: 'René Descartes', avatarUrl: null }
const renate: Person = { id: 'u4', name: 'Renate Müller', avatarUrl: null }
const people = [grace, rene, renate]

function setup(props: { onPickTyped?: (text: string) => boolean; exclude?: string[] } = {}) {
  const onPick = vi.fn((_person: Person) => undefined)
  render(PersonCombobox, { label: 'To', people, onPick, ...props })
  const input = screen.getByRole('combobox', { name: 'To' })
  return { onPick, input }
}

async function type(input: HTMLElement, value: string): Promise<void> {
  await fireEvent.input(input, { target: { value } })
}

/** The names of the options shown, in the order of `people`, which the list keeps. */
function optionNames(): string[] {
  const listbox = within(screen.getByRole('listbox', { name: 'To' }))
  expect(listbox.getAllByRole('option')).toHaveLength(people.filter((person) => listbox.queryByRole('option', { name: person.name })).length)
  return people.map((person) => person.name).filter((name) => listbox.queryByRole('option', { name }) !== null)
}

describe('PersonCombobox', () => {
  it('is a collapsed combobox controlling its listbox until the user types', async () => {
    const { input } = setup()
    expect(input).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()

    await type(input, 'ren')
    expect(input).toHaveAttribute('aria-expanded', 'true')
    const listbox = screen.getByRole('listbox', { name: 'To' })
    expect(input).toHaveAttribute('aria-controls', listbox.id)
  })

  it('filters by any part of the name, whatever the accents and case', async () => {
    const { input } = setup()
    await type(input, 'RENE')
    expect(optionNames()).toEqual(['René Descartes'])
    await type(input, 'mull')
    expect(optionNames()).toEqual(['Renate Müller'])
    await type(input, 'A')
    expect(optionNames()).toEqual(['Grace Hopper', 'René Descartes', 'Renate Müller'])
  })

  it('moves the active option with the arrows, wrapping, and picks it with Enter', async () => {
    const { input, onPick } = setup()
    await type(input, 'ren')
    await fireEvent.keyDown(input, { key: 'ArrowDown' })
    const first = screen.getByRole('option', { name: 'René Descartes' })
    expect(first).toHaveAttribute('aria-selected', 'true')
    expect(input).toHaveAttribute('aria-activedescendant', first.id)

    await fireEvent.keyDown(input, { key: 'ArrowDown' })
    await fireEvent.keyDown(input, { key: 'ArrowDown' })
    expect(screen.getByRole('option', { name: 'René Descartes' })).toHaveAttribute('aria-selected', 'true')
    await fireEvent.keyDown(input, { key: 'ArrowUp' })
    expect(screen.getByRole('option', { name: 'Renate Müller' })).toHaveAttribute('aria-selected', 'true')

    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPick).toHaveBeenCalledWith(renate)
    expect(input).toHaveValue('')
    expect(input).toHaveAttribute('aria-expanded', 'false')
  })

  it('opens the whole list with Down before anything is typed', async () => {
    const { input } = setup()
    await fireEvent.keyDown(input, { key: 'ArrowDown' })
    expect(optionNames()).toEqual(['Grace Hopper', 'René Descartes', 'Renate Müller'])
  })

  it('picks the only match with Enter, and an option with the mouse', async () => {
    const { input, onPick } = setup()
    await type(input, 'grace')
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPick).toHaveBeenLastCalledWith(grace)

    await type(input, 'ren')
    await fireEvent.click(screen.getByRole('option', { name: 'René Descartes' }))
    expect(onPick).toHaveBeenLastCalledWith(rene)
  })

  it('does not guess among several matches on Enter', async () => {
    const { input, onPick } = setup({ onPickTyped: () => true })
    await type(input, 'ren')
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPick).not.toHaveBeenCalled()
    expect(input).toHaveValue('ren')
  })

  it('closes the list with Escape, then clears the text with a second Escape', async () => {
    const { input } = setup()
    await type(input, 'ren')
    await fireEvent.keyDown(input, { key: 'Escape' })
    expect(input).toHaveAttribute('aria-expanded', 'false')
    expect(input).toHaveValue('ren')
    await fireEvent.keyDown(input, { key: 'Escape' })
    expect(input).toHaveValue('')
  })

  it('offers typed text that names nobody, and keeps it when it is refused', async () => {
    const onPickTyped = vi.fn((text: string) => text.includes('@'))
    const { input, onPick } = setup({ onPickTyped })
    await type(input, 'nobody here')
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPickTyped).toHaveBeenLastCalledWith('nobody here')
    expect(input).toHaveValue('nobody here')

    await type(input, ' ada@example.org ')
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPickTyped).toHaveBeenLastCalledWith('ada@example.org')
    expect(input).toHaveValue('')
    expect(onPick).not.toHaveBeenCalled()
  })

  it('leaves out the people excluded', async () => {
    const { input } = setup({ exclude: ['u3'] })
    await type(input, 'ren')
    expect(optionNames()).toEqual(['Renate Müller'])
  })

  it('leaves Enter to the form around once the list is closed, so a pick then Enter submits', async () => {
    const onSubmit = vi.fn((event: Event) => event.preventDefault())
    const { input, onPick } = setup()
    input.closest('div')?.parentElement?.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.defaultPrevented) onSubmit(event)
    })
    await type(input, 'grace')
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPick).toHaveBeenCalledWith(grace)
    expect(onSubmit).not.toHaveBeenCalled()
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(onPick).toHaveBeenCalledTimes(1)
  })
})
