// The sidebar's New message and Contacts, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Contact, Person, Profile } from '@shared/people'
import { conversation, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'
import { stubClipboard } from '../../testing/clipboard'

const grace: Person = { id: 'u2', name: 'Grace Hopper', avatarUrl: null }
const rene: Person = { id: 'u3', name: 'René Descartes', avatarUrl: null }
const chat = conversation({ id: 'u1+u3', kind: 'dm', name: 'René Descartes' })
const bookClub = conversation({ id: 'g1', name: 'Book club' })
const MY_LINK = 'http://127.0.0.1:8080/contact/1/SeCrEt'

function contact(person: Person, overrides: Partial<Contact> = {}): Contact {
  return { ...person, blocked: false, source: 'link', ...overrides }
}

function profileOf(person: Person): Profile {
  return { ...person, bio: '', canMessage: true, isContact: true, blockedByMe: false, sharedGroups: [] }
}

function signedIn(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub])
    .returns('people:candidates', [grace, rene])
    .returns('contacts:list', [contact(rene), contact(grace, { blocked: true })])
    .returns('contacts:myLink', { url: MY_LINK })
    .handle('people:profile', ({ userId }) => ({ ok: true, value: profileOf(userId === 'u3' ? rene : grace) }))
    .handle('conversations:open', ({ conversationId }) => ({
      ok: true,
      value: { conversation: conversationId === chat.id ? chat : bookClub, messages: [], hasOlder: false, pending: [] }
    }))
}

afterEach(() => vi.unstubAllGlobals())

describe('New message', () => {
  async function openNewMessage(fake: FakeApi): Promise<HTMLElement> {
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'New message' }))
    return screen.getByRole('dialog', { name: 'New message' })
  }

  it('starts a chat with someone picked in To, and opens it though it is not listed yet', async () => {
    const fake = signedIn().returns('chats:start', chat)
    const dialog = await openNewMessage(fake)
    const to = within(dialog).getByRole('combobox', { name: 'To' })
    await waitFor(() => expect(fake.callsTo('people:candidates')).toHaveLength(1))
    await fireEvent.input(to, { target: { value: 'rene' } })
    await fireEvent.click(within(dialog).getByRole('option', { name: 'René Descartes' }))
    expect(to).toHaveValue('René Descartes')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Start' }))

    await waitFor(() => expect(fake.callsTo('chats:start')).toEqual([{ userId: 'u3' }]))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New message' })).not.toBeInTheDocument())
    expect(await screen.findByRole('heading', { name: 'René Descartes', level: 2 })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument()
    // Not in the list until its first message: the list still has only Book club.
    expect(within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem')).toHaveLength(1)
  })

  it('picks by keyboard alone', async () => {
    const fake = signedIn().returns('chats:start', chat)
    const dialog = await openNewMessage(fake)
    const to = within(dialog).getByRole('combobox', { name: 'To' })
    expect(to).toHaveFocus()
    await waitFor(() => expect(fake.callsTo('people:candidates')).toHaveLength(1))
    await fireEvent.input(to, { target: { value: 'r' } })
    await fireEvent.keyDown(to, { key: 'ArrowDown' })
    await fireEvent.keyDown(to, { key: 'ArrowDown' })
    await fireEvent.keyDown(to, { key: 'Enter' })
    expect(to).toHaveValue('René Descartes')
    // A second Enter, with the list closed, is the form's: jsdom does not submit on it, so the test does.
    expect(await fireEvent.keyDown(to, { key: 'Enter' })).toBe(true)
    await fireEvent.submit(to.closest('form') as HTMLFormElement)
    await waitFor(() => expect(fake.callsTo('chats:start')).toEqual([{ userId: 'u3' }]))
  })

  it('asks for someone from the list when nobody was picked, or the name was changed after', async () => {
    const fake = signedIn().returns('chats:start', chat)
    const dialog = await openNewMessage(fake)
    const to = within(dialog).getByRole('combobox', { name: 'To' })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Start' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Choose someone from the list first.')

    await fireEvent.input(to, { target: { value: 'grace' } })
    await fireEvent.keyDown(to, { key: 'Enter' })
    await fireEvent.input(to, { target: { value: 'Grace H' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Start' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Choose someone from the list first.')
    expect(fake.callsTo('chats:start')).toEqual([])
  })

  // chats:start reads only the person (U3): a block refuses the first send, not the start (refused-message.test.ts).
  it('says why the chat could not be started, and keeps the choice', async () => {
    const fake = signedIn().fails('chats:start', 'NETWORK', 'The service cannot be reached. Check your connection.')
    const dialog = await openNewMessage(fake)
    const to = within(dialog).getByRole('combobox', { name: 'To' })
    await fireEvent.input(to, { target: { value: 'rene' } })
    await fireEvent.keyDown(to, { key: 'Enter' })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Start' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached. Check your connection.')
    expect(to).toHaveValue('René Descartes')
  })

  it('says when the people to write to could not be loaded, and tries again', async () => {
    const fake = signedIn().fails('people:candidates', 'NETWORK', 'The service cannot be reached.')
    const dialog = await openNewMessage(fake)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The service cannot be reached.')
    fake.returns('people:candidates', [grace])
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    await fireEvent.input(within(dialog).getByRole('combobox', { name: 'To' }), { target: { value: 'gr' } })
    expect(await within(dialog).findByRole('option', { name: 'Grace Hopper' })).toBeInTheDocument()
  })
})

describe('Contacts', () => {
  async function openContacts(fake: FakeApi): Promise<HTMLElement> {
    await startApp(fake)
    const button = await screen.findByRole('button', { name: 'Contacts' })
    expect(button).toHaveAttribute('aria-haspopup', 'dialog')
    await fireEvent.click(button)
    return screen.getByRole('dialog', { name: 'Contacts' })
  }

  function names(contacts: HTMLElement): (string | undefined)[] {
    return within(within(contacts).getByRole('list', { name: 'Your contacts' }))
      .getAllByRole('listitem')
      .map((item) => within(item).getAllByRole('button')[0]?.textContent?.trim())
  }

  it('opens as a dialog with focus in its search, lists the contacts by name, searchable whatever the accents, and closes', async () => {
    const contacts = await openContacts(signedIn())
    await waitFor(() => expect(within(contacts).getByRole('searchbox', { name: 'Search contacts' })).toHaveFocus())
    await waitFor(() => expect(names(contacts)).toEqual(['GH Grace Hopper', 'RD René Descartes']))
    expect(within(contacts).getByText('Blocked')).toBeInTheDocument()

    const search = within(contacts).getByRole('searchbox', { name: 'Search contacts' })
    await fireEvent.input(search, { target: { value: 'RENE' } })
    expect(names(contacts)).toEqual(['RD René Descartes'])
    await fireEvent.input(search, { target: { value: 'zzz' } })
    expect(within(contacts).getByText('No contact matches “zzz”.')).toHaveAttribute('role', 'status')

    // Escape is the browser's, for a modal dialog: the end-to-end tests press it.
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Close' }))
    expect(contacts).not.toHaveAttribute('open')
    expect(screen.getByRole('button', { name: 'Contacts' })).toHaveFocus()
  })

  it('opens a contact’s profile', async () => {
    const contacts = await openContacts(signedIn())
    await fireEvent.click(await within(contacts).findByRole('button', { name: 'René Descartes' }))
    expect(await screen.findByRole('dialog', { name: 'René Descartes' })).toBeInTheDocument()
  })

  it('removes a contact after asking, and says why when that is refused', async () => {
    const fake = signedIn().returns('contacts:remove', null)
    const contacts = await openContacts(fake)
    await fireEvent.click(await within(contacts).findByRole('button', { name: 'Remove René Descartes' }))
    await fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Remove René Descartes from your contacts?' })).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(within(contacts).queryByRole('button', { name: 'René Descartes' })).not.toBeInTheDocument())
    expect(fake.callsTo('contacts:remove')).toEqual([{ userId: 'u3' }])

    fake.fails('contacts:remove', 'NOT_FOUND', 'They are not in your contacts.')
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Remove Grace Hopper' }))
    await fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Remove Grace Hopper from your contacts?' })).getByRole('button', { name: 'Remove' }))
    expect(await within(contacts).findByRole('alert')).toHaveTextContent('They are not in your contacts.')
    expect(within(contacts).getByRole('button', { name: 'Grace Hopper' })).toBeInTheDocument()
  })

  it('says when the contacts could not be loaded, and tries again', async () => {
    const fake = signedIn().fails('contacts:list', 'NETWORK', 'The service cannot be reached.')
    const contacts = await openContacts(fake)
    expect(await within(contacts).findByRole('alert')).toHaveTextContent('The contacts could not be loaded. The service cannot be reached.')
    fake.returns('contacts:list', [contact(grace)])
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Try again' }))
    expect(await within(contacts).findByRole('button', { name: 'Grace Hopper' })).toBeInTheDocument()
  })

  it('adds a contact from a pasted link and shows their profile', async () => {
    const fake = signedIn().returns('contacts:addFromLink', profileOf(rene))
    const contacts = await openContacts(fake)
    await fireEvent.input(within(contacts).getByRole('textbox', { name: 'Contact link' }), { target: { value: ' http://127.0.0.1:8080/contact/3/AbC ' } })
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Add contact' }))
    expect(await screen.findByRole('dialog', { name: 'René Descartes' })).toBeInTheDocument()
    expect(fake.callsTo('contacts:addFromLink')).toEqual([{ link: 'http://127.0.0.1:8080/contact/3/AbC' }])
    expect(within(contacts).getByRole('textbox', { name: 'Contact link' })).toHaveValue('')
    await waitFor(() => expect(fake.callsTo('contacts:list')).toHaveLength(2))
  })

  it('says why a link was refused, and keeps what was pasted', async () => {
    const fake = signedIn().fails('contacts:addFromLink', 'VALIDATION', 'That is not a contact link. A contact link looks like https://…/contact/<number>/<code>.')
    const contacts = await openContacts(fake)
    const field = within(contacts).getByRole('textbox', { name: 'Contact link' })
    await fireEvent.input(field, { target: { value: 'not a link' } })
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Add contact' }))
    expect(await within(contacts).findByRole('alert')).toHaveTextContent('That is not a contact link.')
    expect(field).toHaveValue('not a link')
    // No profile opened over Contacts.
    expect(screen.getAllByRole('dialog')).toEqual([contacts])
  })

  it('shows the user’s own link and copies it', async () => {
    const writeText = vi.fn(async (_text: string) => undefined)
    stubClipboard(writeText)
    const contacts = await openContacts(signedIn())
    expect(await within(contacts).findByRole('textbox', { name: 'Your contact link' })).toHaveValue(MY_LINK)
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Copy link' }))
    expect(writeText).toHaveBeenCalledWith(MY_LINK)
    expect(await within(contacts).findByText('Link copied.')).toBeInTheDocument()
  })

  it('says when the link could not be copied', async () => {
    stubClipboard(async () => Promise.reject(new Error('denied')))
    const contacts = await openContacts(signedIn())
    await within(contacts).findByDisplayValue(MY_LINK)
    await fireEvent.click(within(contacts).getByRole('button', { name: 'Copy link' }))
    expect(await within(contacts).findByText('The link could not be copied: select it and copy it yourself.')).toBeInTheDocument()
  })
})

describe('importing contacts', () => {
  async function chooseCsv(contacts: HTMLElement, csv: string): Promise<void> {
    const picker = within(contacts).getByLabelText('Import contacts from a CSV file')
    Object.defineProperty(picker, 'files', { value: [new File([csv], 'book.csv', { type: 'text/csv' })], configurable: true })
    await fireEvent.change(picker)
  }

  async function openContacts(fake: FakeApi): Promise<HTMLElement> {
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: 'Contacts' }))
    return screen.getByRole('dialog', { name: 'Contacts' })
  }

  it('lists the rows it could not read, imports the rest with progress, then says how many matched', async () => {
    const fake = signedIn()
    const answer = fake.holds('contacts:import')
    const contacts = await openContacts(fake)
    await chooseCsv(contacts, 'Name;Phone\nGrace Hopper;+1 555 0100 200\n;5550100300\nEve;12\nRené;5550100400\n')

    expect(await within(contacts).findByText('2 contacts ready to import from book.csv.')).toBeInTheDocument()
    const unread = within(contacts).getByRole('region', { name: '2 rows could not be read' })
    expect(unread).toHaveTextContent('Line 3 “;5550100300”: it has no name.')
    expect(unread).toHaveTextContent('Line 4 “Eve;12”: “12” is not a phone number.')

    await fireEvent.click(within(contacts).getByRole('button', { name: 'Import 2 contacts' }))
    const [request] = fake.callsTo('contacts:import')
    expect(request?.cards).toEqual([
      { name: 'Grace Hopper', phone: '+15550100200' },
      { name: 'René', phone: '5550100400' }
    ])
    expect(request?.importId).toMatch(/^[0-9a-f-]{36}$/)
    const bar = within(contacts).getByRole('progressbar', { name: 'Importing contacts' })
    expect(bar).toHaveAttribute('value', '0')

    fake.emit('contacts:importProgress', { importId: 'someone-else', done: 2, total: 2 })
    fake.emit('contacts:importProgress', { importId: request?.importId ?? '', done: 1, total: 2 })
    await waitFor(() => expect(bar).toHaveAttribute('value', '1'))
    expect(bar).toHaveAttribute('max', '2')

    const alan: Person = { id: 'u9', name: 'Alan Turing', avatarUrl: null }
    answer.resolve({ submitted: 2, matched: [contact(alan, { source: 'import' })] })
    expect(await within(contacts).findByText('Import done: 1 of 2 contacts matched someone on Parley.')).toBeInTheDocument()
    expect(within(contacts).getByRole('button', { name: 'Alan Turing' })).toBeInTheDocument()
  })

  it('says why an import was refused, and lets the user try again', async () => {
    const fake = signedIn().fails('contacts:import', 'FORBIDDEN', 'The service did not accept this device for importing contacts: its device verification failed.')
    const contacts = await openContacts(fake)
    await chooseCsv(contacts, 'Grace,5550100200\n')
    await fireEvent.click(await within(contacts).findByRole('button', { name: 'Import 1 contact' }))
    expect(await within(contacts).findByRole('alert')).toHaveTextContent('its device verification failed')
    expect(within(contacts).getByRole('button', { name: 'Import 1 contact' })).toBeEnabled()
  })

  it('loads the contact list again after an import that stopped part way, to show what went through', async () => {
    const PARTWAY =
      'The import stopped part way: 1 of its 2 batches of up to 1000 contacts went through, so some contacts may have been added. The service cannot be reached. Check your connection.'
    const fake = signedIn().fails('contacts:import', 'NETWORK', PARTWAY)
    const contacts = await openContacts(fake)
    await waitFor(() => expect(fake.callsTo('contacts:list')).toHaveLength(1))
    const alan: Person = { id: 'u9', name: 'Alan Turing', avatarUrl: null }
    fake.returns('contacts:list', [contact(rene), contact(grace, { blocked: true }), contact(alan, { source: 'import' })])

    await chooseCsv(contacts, 'Alan Turing,5550100200\n')
    await fireEvent.click(await within(contacts).findByRole('button', { name: 'Import 1 contact' }))
    expect(await within(contacts).findByRole('alert')).toHaveTextContent('some contacts may have been added')
    expect(await within(contacts).findByRole('button', { name: 'Alan Turing' })).toBeInTheDocument()
    expect(fake.callsTo('contacts:list')).toHaveLength(2)
    expect(within(contacts).getByRole('button', { name: 'Import 1 contact' })).toBeEnabled()
  })

  it('offers no import for a file with no readable row', async () => {
    const fake = signedIn()
    const contacts = await openContacts(fake)
    await chooseCsv(contacts, 'name,phone\nBob,call me\n')
    expect(await within(contacts).findByText('book.csv has no contact that can be imported.')).toBeInTheDocument()
    expect(within(contacts).getByRole('region', { name: '1 row could not be read' })).toHaveTextContent('“call me” is not a phone number')
    expect(within(contacts).queryByRole('button', { name: /^Import/ })).not.toBeInTheDocument()
  })
})
