import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

function signedIn(): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me })
}

describe('conversation list', () => {
  it('puts groups and direct messages together, newest activity first', async () => {
    const fake = signedIn().returns('conversations:list', [
      conversation({ id: 'g1', name: 'Book club', lastActivityAt: 1_700_000_100 }),
      conversation({ id: '1+2', kind: 'dm', name: 'Grace Hopper', lastActivityAt: 1_700_000_300 }),
      conversation({ id: 'g2', name: 'Climbing', lastActivityAt: 1_700_000_200 })
    ])
    await startApp(fake)

    const list = await screen.findByRole('list', { name: 'Conversations' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3))
    const names = within(list).getAllByRole('button').map((button) => button.textContent)
    expect(names[0]).toContain('Grace Hopper')
    expect(names[1]).toContain('Climbing')
    expect(names[2]).toContain('Book club')
  })

  it('shows the last message and an unread badge a screen reader can name', async () => {
    const fake = signedIn().returns('conversations:list', [
      conversation({
        id: 'g1',
        name: 'Book club',
        unreadCount: 3,
        preview: { senderName: 'Grace', text: 'Chapter 4 tonight?', hasAttachments: false }
      })
    ])
    await startApp(fake)

    const item = await screen.findByRole('button', { name: /Book club/ })
    expect(item).toHaveTextContent('Grace: Chapter 4 tonight?')
    expect(item).toHaveAccessibleName(expect.stringContaining('3 unread'))
  })

  it('says what a last message of no words carries, and "Sent an attachment" where the kind is not known', async () => {
    await startApp(
      signedIn().returns('conversations:list', [
        conversation({ id: 'g1', name: 'Book club', preview: { senderName: 'Grace', text: '', hasAttachments: true, attachmentKind: 'location' } }),
        conversation({ id: 'g2', name: 'Climbing', preview: { senderName: 'Alan', text: ' ', hasAttachments: true, attachmentKind: 'picture' } }),
        // As a list kept on the device before the kind was known holds it.
        conversation({ id: 'g3', name: 'Chess', preview: { senderName: 'Ada', text: '', hasAttachments: true } })
      ])
    )
    expect(await screen.findByRole('button', { name: /Book club/ })).toHaveTextContent('Grace: Shared a location')
    expect(screen.getByRole('button', { name: /Climbing/ })).toHaveTextContent('Alan: Sent a picture')
    expect(screen.getByRole('button', { name: /Chess/ })).toHaveTextContent('Ada: Sent an attachment')
  })

  it("isolates the sender's name in the preview, so an override left open in it cannot turn the message around", async () => {
    const name = 'Eve \u202Egnp.exe'
    await startApp(
      signedIn().returns('conversations:list', [
        conversation({ id: 'g1', name: 'Book club', preview: { senderName: name, text: 'plain words after', hasAttachments: false } })
      ])
    )
    const item = await screen.findByRole('button', { name: /Book club/ })
    expect(item).toHaveTextContent(`${name}: plain words after`)
    const isolated = item.querySelector('bdi')
    expect(isolated?.textContent).toBe(name)
    expect(isolated?.parentElement?.textContent).toBe(`${name}: plain words after`)
  })

  it('reorders when main sends a new list', async () => {
    const fake = signedIn().returns('conversations:list', [
      conversation({ id: 'g1', name: 'Book club', lastActivityAt: 1_700_000_100 }),
      conversation({ id: 'g2', name: 'Climbing', lastActivityAt: 1_700_000_200 })
    ])
    await startApp(fake)
    await screen.findByRole('button', { name: /Climbing/ })

    fake.emit('conversations:changed', [
      conversation({ id: 'g1', name: 'Book club', lastActivityAt: 1_700_000_900, unreadCount: 1 }),
      conversation({ id: 'g2', name: 'Climbing', lastActivityAt: 1_700_000_200 })
    ])

    const list = screen.getByRole('list', { name: 'Conversations' })
    await waitFor(() => expect(within(list).getAllByRole('button')[0]).toHaveAccessibleName(/Book club.*1 unread/))
  })

  it('offers to try again when the list cannot be loaded', async () => {
    const fake = signedIn().fails('conversations:list', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service.'))
    fake.returns('conversations:list', [conversation({ id: 'g1', name: 'Book club' })])
    screen.getByRole('button', { name: 'Try again' }).click()

    expect(await screen.findByRole('button', { name: /Book club/ })).toBeInTheDocument()
  })

  describe('Search conversations', () => {
    const list = [
      conversation({ id: 'g1', name: 'Book club', lastActivityAt: 1_700_000_100 }),
      conversation({ id: '1+2', kind: 'dm', name: 'René Descartes', lastActivityAt: 1_700_000_300 }),
      conversation({ id: 'g2', name: 'Rendez-vous', lastActivityAt: 1_700_000_200 })
    ]

    function shownNames(): string[] {
      const items = within(screen.getByRole('list', { name: 'Conversations' })).queryAllByRole('button')
      return items.map((button) => list.find((c) => button.textContent?.includes(c.name))?.name ?? '?')
    }

    it('filters by name as the user types, whatever the accents and case, and Clear search brings all back', async () => {
      await startApp(signedIn().returns('conversations:list', list))
      await screen.findByRole('button', { name: /Book club/ })
      const search = screen.getByRole('textbox', { name: 'Search conversations' })

      await fireEvent.input(search, { target: { value: 'REN' } })
      expect(shownNames()).toEqual(['René Descartes', 'Rendez-vous'])
      expect(screen.getByText('2 conversations found.')).toHaveAttribute('aria-live', 'polite')
      await fireEvent.input(search, { target: { value: 'rené' } })
      expect(shownNames()).toEqual(['René Descartes'])

      await fireEvent.click(screen.getByRole('button', { name: 'Clear search' }))
      expect(search).toHaveValue('')
      expect(search).toHaveFocus()
      expect(shownNames()).toEqual(['René Descartes', 'Rendez-vous', 'Book club'])
    })

    it('says when nothing matches, and Escape clears the search', async () => {
      await startApp(signedIn().returns('conversations:list', list))
      await screen.findByRole('button', { name: /Book club/ })
      const search = screen.getByRole('textbox', { name: 'Search conversations' })
      await fireEvent.input(search, { target: { value: 'chess' } })
      expect(shownNames()).toEqual([])
      expect(screen.getAllByText('No conversation matches “chess”.').length).toBeGreaterThan(0)

      await fireEvent.keyDown(search, { key: 'Escape' })
      expect(search).toHaveValue('')
      expect(shownNames()).toHaveLength(3)
    })

    it('goes from the search box to the first conversation found with Down', async () => {
      await startApp(signedIn().returns('conversations:list', list))
      await screen.findByRole('button', { name: /Book club/ })
      const search = screen.getByRole('textbox', { name: 'Search conversations' })
      await fireEvent.input(search, { target: { value: 'book' } })
      await fireEvent.keyDown(search, { key: 'ArrowDown' })
      expect(screen.getByRole('button', { name: /Book club/ })).toHaveFocus()
    })

    it('keeps filtering a list that main changes meanwhile', async () => {
      const fake = signedIn().returns('conversations:list', list)
      await startApp(fake)
      await screen.findByRole('button', { name: /Book club/ })
      await fireEvent.input(screen.getByRole('textbox', { name: 'Search conversations' }), { target: { value: 'club' } })
      fake.emit('conversations:changed', [...list, conversation({ id: 'g3', name: 'Chess club', lastActivityAt: 1_700_000_400 })])
      await waitFor(() => expect(within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem')).toHaveLength(2))
    })
  })
})
