// Settings ▸ Storage, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { HistoryDownload, StorageState } from '@shared/storage'
import { FakeApi, desktopState, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const LAUNCH = '7001' as ConversationId

const downloading: HistoryDownload = {
  state: 'downloading',
  conversationsDone: 3,
  conversations: 42,
  current: { conversationId: LAUNCH, name: 'Launch Team', kept: 1200, total: 10_000 }
}

function storage(overrides: Partial<StorageState> = {}): StorageState {
  return {
    keepFullHistory: true,
    paused: false,
    download: downloading,
    usage: { messages: 12_345, conversations: 42, bytes: 18_200_000, pictures: { bytes: 35_000_000, limitBytes: 500_000_000 } },
    ...overrides
  }
}

function signedIn(state: StorageState = storage()): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('desktop:get', desktopState()).returns('storage:get', state)
}

async function openStorage(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Storage' }))
  await within(dialog).findByRole('switch', { name: 'Keep full history on this device' })
  return within(dialog).getByRole('tabpanel', { name: 'Storage' })
}

describe('Settings ▸ Storage', () => {
  it('shows the switch on, the download with its conversation and counts in words, and what is kept', async () => {
    const panel = await openStorage(signedIn())
    expect(within(panel).getByRole('switch', { name: 'Keep full history on this device' })).toBeChecked()
    const bar = within(panel).getByRole('progressbar', { name: 'Downloading history' })
    expect(bar).toHaveAttribute('aria-valuenow', '3')
    expect(bar).toHaveAttribute('aria-valuemax', '42')
    expect(bar).toHaveAttribute('aria-valuetext', '3 of 42 conversations')
    expect(bar).toHaveAccessibleDescription('Launch Team: 1,200 of about 10,000 messages (3 of 42 conversations complete)')
    expect(panel).toHaveTextContent('Launch Team: 1,200 of about 10,000 messages')
    expect(panel).toHaveTextContent('12,345 messages in 42 conversations, 18.2 MB; pictures 35.0 MB of 500 MB')
    expect(within(panel).getByRole('combobox', { name: 'Space for pictures' })).toHaveValue('500')
    expect(within(panel).getByRole('button', { name: 'Pause' })).toBeEnabled()
    expect(within(panel).queryByRole('button', { name: 'Resume' })).toBeNull()
  })

  it('moves the progressbar as main reports the download, and measures what is kept again as a conversation is finished', async () => {
    const fake = signedIn()
    const panel = await openStorage(fake)
    const measured = fake.callsTo('storage:get').length

    fake.emit('storage:progress', { ...downloading, current: { conversationId: LAUNCH, name: 'Launch Team', kept: 1300, total: 10_000 } })
    await waitFor(() => expect(panel).toHaveTextContent('Launch Team: 1,300 of about 10,000 messages'))
    expect(fake.callsTo('storage:get')).toHaveLength(measured)

    fake.returns('storage:get', storage({ download: { state: 'done', conversationsDone: 42, conversations: 42, current: null }, usage: { messages: 20_000, conversations: 42, bytes: 30_050_000, pictures: { bytes: 35_000_000, limitBytes: 500_000_000 } } }))
    fake.emit('storage:progress', { state: 'done', conversationsDone: 42, conversations: 42, current: null })
    expect(await within(panel).findByText('All history is on this device')).toBeInTheDocument()
    expect(within(panel).queryByRole('progressbar')).toBeNull()
    // Paused, a conversation joined later would not download either.
    expect(within(panel).getByRole('button', { name: 'Pause' })).toBeEnabled()
    await waitFor(() => expect(panel).toHaveTextContent('20,000 messages in 42 conversations, 30.1 MB'))
  })

  it('says a count the service did not give in words of its own, and one message as one', async () => {
    const panel = await openStorage(
      signedIn(
        storage({
          download: { state: 'downloading', conversationsDone: 0, conversations: 1, current: { conversationId: LAUNCH, name: 'Launch Team', kept: 1, total: null } },
          usage: { messages: 1, conversations: 1, bytes: 40_960, pictures: { bytes: 35_000_000, limitBytes: 500_000_000 } }
        })
      )
    )
    expect(panel).toHaveTextContent('Launch Team: 1 message')
    expect(panel).toHaveTextContent('1 message in 1 conversation, 0.0 MB')
  })

  it('pauses and resumes the download', async () => {
    const fake = signedIn().returns('storage:pause', storage({ paused: true, download: { ...downloading, state: 'paused' } }))
    const panel = await openStorage(fake)
    await fireEvent.click(within(panel).getByRole('button', { name: 'Pause' }))
    const resume = await within(panel).findByRole('button', { name: 'Resume' })
    expect(fake.callsTo('storage:pause')).toEqual([{}])
    expect(panel).toHaveTextContent('Paused. Nothing more is downloaded until you resume.')
    expect(within(panel).getByRole('progressbar', { name: 'Downloading history' })).toHaveAttribute('aria-valuenow', '3')

    fake.returns('storage:resume', storage())
    await fireEvent.click(resume)
    expect(await within(panel).findByRole('button', { name: 'Pause' })).toBeInTheDocument()
    expect(fake.callsTo('storage:resume')).toEqual([{}])
  })

  it('turns Keep full history off and on, and goes back to what main keeps when refused', async () => {
    const fake = signedIn().returns('storage:keepFullHistory', storage({ keepFullHistory: false, download: { ...downloading, state: 'off' } }))
    const panel = await openStorage(fake)
    const keep = within(panel).getByRole('switch', { name: 'Keep full history on this device' })
    await fireEvent.click(keep)
    await waitFor(() => expect(keep).not.toBeChecked())
    expect(fake.callsTo('storage:keepFullHistory')).toEqual([{ on: false }])
    expect(within(panel).queryByRole('progressbar')).toBeNull()
    expect(within(panel).queryByRole('button', { name: 'Pause' })).toBeNull()
    expect(panel).toHaveTextContent('Older history is not downloaded. What is kept stays until you delete it.')

    fake.fails('storage:keepFullHistory', 'INTERNAL', 'Something went wrong on our side. Please try again.')
    await fireEvent.click(keep)
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Something went wrong on our side.')
    expect(keep).not.toBeChecked()
  })

  it('deletes local data only after a confirmation, and shows what is kept afterwards', async () => {
    const fake = signedIn().returns(
      'storage:deleteLocalData',
      storage({ download: { state: 'downloading', conversationsDone: 0, conversations: 42, current: null }, usage: { messages: 0, conversations: 0, bytes: 53_248, pictures: { bytes: 35_000_000, limitBytes: 500_000_000 } } })
    )
    const panel = await openStorage(fake)

    await fireEvent.click(within(panel).getByRole('button', { name: 'Delete local data' }))
    let question = await screen.findByRole('alertdialog', { name: 'Delete local data?' })
    expect(question).toHaveAccessibleDescription(/Messages waiting to be sent stay\./)
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(fake.callsTo('storage:deleteLocalData')).toEqual([])

    await fireEvent.click(within(panel).getByRole('button', { name: 'Delete local data' }))
    question = await screen.findByRole('alertdialog', { name: 'Delete local data?' })
    await fireEvent.click(within(question).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(panel).toHaveTextContent('0 messages in 0 conversations, 0.1 MB'))
    expect(fake.callsTo('storage:deleteLocalData')).toEqual([{}])
  })

  it('says why local data could not be deleted', async () => {
    const fake = signedIn().fails('storage:deleteLocalData', 'INTERNAL', 'The messages kept on this device could not be deleted. Try again, or restart the app.')
    const panel = await openStorage(fake)
    await fireEvent.click(within(panel).getByRole('button', { name: 'Delete local data' }))
    await fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Delete local data?' })).getByRole('button', { name: 'Delete' }))
    expect(await within(panel).findByRole('alert')).toHaveTextContent('could not be deleted')
    expect(panel).toHaveTextContent('12,345 messages in 42 conversations, 18.2 MB')
  })

  it('says so when nothing is kept, and offers nothing to delete', async () => {
    const panel = await openStorage(signedIn(storage({ usage: null, download: { state: 'waiting', conversationsDone: 0, conversations: 0, current: null } })))
    expect(panel).toHaveTextContent('Nothing is kept on this device.')
    expect(within(panel).queryByRole('button', { name: 'Delete local data' })).toBeNull()
    const bar = within(panel).getByRole('progressbar', { name: 'Downloading history' })
    expect(bar).not.toHaveAttribute('aria-valuenow')
    expect(panel).toHaveTextContent('Waiting: new messages and the connection come first.')
  })

  it('stops following the download once the tab closes', async () => {
    const fake = signedIn()
    await openStorage(fake)
    expect(fake.listenerCount('storage:progress')).toBe(1)
    await fireEvent.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('tab', { name: 'Service' }))
    expect(fake.listenerCount('storage:progress')).toBe(0)
  })
})
