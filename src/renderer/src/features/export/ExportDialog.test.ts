import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import { FakeApi } from '../../testing/fake-api'
import ExportDialog from './ExportDialog.svelte'

function open(fake: FakeApi, download = vi.fn<(blob: Blob, fileName: string) => void>(), onClose = vi.fn()) {
  fake.install()
  render(ExportDialog, { conversationId: 'g1', onClose, download })
  return { dialog: screen.getByRole('dialog', { name: 'Export conversation' }), download, onClose }
}

describe('ExportDialog', () => {
  it('exports as HTML by default, shows how far it is, and saves the pieces main sent as one file', async () => {
    const fake = new FakeApi()
    const held = fake.holds('exports:start')
    const { dialog, download } = open(fake)
    expect(within(dialog).getByRole('radio', { name: 'HTML' })).toBeChecked()
    expect(within(dialog).getByRole('radio', { name: 'HTML' })).toHaveFocus()

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }))
    const [request] = fake.callsTo('exports:start')
    expect(request).toMatchObject({ conversationId: 'g1', format: 'html' })
    const exportId = request?.exportId ?? ''
    const bar = within(dialog).getByRole('progressbar', { name: 'Exporting' })
    expect(within(dialog).getByRole('radio', { name: 'JSON' })).toBeDisabled()

    fake.emit('exports:progress', { exportId, phase: 'fetching', done: 300, total: 1000 })
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('Fetching older messages: 300 of 1000'))
    fake.emit('exports:progress', { exportId, phase: 'writing', done: 500, total: 1000 })
    await waitFor(() => expect(bar).toHaveAttribute('value', '500'))
    expect(bar).toHaveAttribute('max', '1000')
    fake.emit('exports:chunk', { exportId, text: '<!doctype html>' })
    // Another export's pieces are not this one's.
    fake.emit('exports:chunk', { exportId: 'someone-else', text: 'NOT MINE' })
    fake.emit('exports:chunk', { exportId, text: '<p>end</p>' })
    held.resolve({ status: 'saved', fileName: 'Book club 2026-11-27.html', messages: 1000, toPage: true })

    await waitFor(() => expect(download).toHaveBeenCalledOnce())
    const [blob, name] = download.mock.calls[0] ?? []
    expect(name).toBe('Book club 2026-11-27.html')
    expect(blob?.type).toBe('text/html;charset=utf-8')
    expect(await blob?.text()).toBe('<!doctype html><p>end</p>')
    expect(within(dialog).getByRole('status')).toHaveTextContent('Saved 1000 messages as “Book club 2026-11-27.html”.')
    expect(within(dialog).queryByRole('progressbar')).toBeNull()
  })

  it('exports JSON when chosen; a file main saved itself is not downloaded', async () => {
    const fake = new FakeApi().returns('exports:start', { status: 'saved', fileName: 'Chat.json', messages: 3, toPage: false })
    const { dialog, download } = open(fake)
    await fireEvent.click(within(dialog).getByRole('radio', { name: 'JSON' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }))
    expect(await within(dialog).findByText('Saved 3 messages as “Chat.json”.')).toBeInTheDocument()
    expect(fake.callsTo('exports:start')[0]?.format).toBe('json')
    expect(download).not.toHaveBeenCalled()
  })

  it('cancels the export under way with Cancel, and when the dialog closes', async () => {
    const fake = new FakeApi().returns('exports:cancel', null)
    const held = fake.holds('exports:start')
    const { dialog, onClose } = open(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }))
    const exportId = fake.callsTo('exports:start')[0]?.exportId
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(fake.callsTo('exports:cancel')).toEqual([{ exportId }])
    held.resolve({ status: 'cancelled' })
    expect(await within(dialog).findByText('The export was cancelled.')).toBeInTheDocument()

    const again = fake.holds('exports:start')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(fake.callsTo('exports:cancel')).toHaveLength(2)
    expect(onClose).toHaveBeenCalledOnce()
    again.resolve({ status: 'cancelled' })
  })

  it('says why an export failed', async () => {
    const fake = new FakeApi().fails('exports:start', 'NETWORK', 'Cannot reach the service. Check your connection and try again.')
    const { dialog } = open(fake)
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Cannot reach the service.')
    expect(within(dialog).getByRole('button', { name: 'Export' })).toBeEnabled()
  })
})
