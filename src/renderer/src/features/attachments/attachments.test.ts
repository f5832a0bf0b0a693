// Pictures in the composer (attach, paste, drop, upload with progress, cancel, retry, refuse) and
// attachments in the history (pictures, the viewer, locations, emoji), through the whole renderer
// against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Message } from '@shared/messages'
import { MAX_IMAGE_BYTES } from '@shared/image-files'
import { conversation, FakeApi, me, message, pending } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const bookClub = conversation({ id: 'g1', name: 'Book club' })
const PICTURE_URL = 'http://127.0.0.1:8080/image/i/0123456789abcdef0123456789abcdef'

beforeEach(() => {
  // jsdom has no object URLs; the previews only need a distinct address per file.
  let next = 0
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:preview-${++next}`), revokeObjectURL: vi.fn() }))
})

afterEach(() => vi.unstubAllGlobals())

function withHistory(messages: Message[] = []): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub])
    .returns('conversations:open', { conversation: bookClub, messages, hasOlder: false, pending: [] })
    .returns('uploads:start', { url: PICTURE_URL })
    .returns('uploads:cancel', null)
    .handle('messages:send', ({ conversationId, clientId, text, attachments }) => ({
      ok: true,
      value: pending({ conversationId, clientId, text, ...(attachments === undefined ? {} : { attachments }) })
    }))
}

async function openBookClub(fake: FakeApi): Promise<void> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  await screen.findByRole('list', { name: 'Messages' })
}

function png(name = 'photo.png', size = 16): File {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47])
  return new File([bytes], name, { type: 'image/png' })
}

/** The composer's own file picker: other forms on the page (New group's picture, say) have theirs. */
function composerPicker(): HTMLInputElement | null {
  return screen.getByRole('button', { name: 'Attach image' }).closest('form')?.querySelector<HTMLInputElement>('input[type="file"]') ?? null
}

/** Chooses files in the picker the Attach image button opens. */
async function choose(...files: File[]): Promise<void> {
  const picker = composerPicker()
  if (picker === null) throw new Error('the composer has no file picker')
  Object.defineProperty(picker, 'files', { value: files, configurable: true })
  await fireEvent.change(picker)
}

function attachments(): HTMLElement {
  return screen.getByRole('list', { name: 'Attachments' })
}

function sendButton(): HTMLElement {
  return screen.getByRole('button', { name: 'Send' })
}

describe('attaching pictures', () => {
  it('offers an Attach image button that opens a picker of JPEG, PNG and GIF files', async () => {
    await openBookClub(withHistory())
    const picker = composerPicker()
    const click = vi.spyOn(picker ?? new HTMLInputElement(), 'click')
    await fireEvent.click(screen.getByRole('button', { name: 'Attach image' }))
    expect(click).toHaveBeenCalled()
    expect(picker?.accept).toBe('image/jpeg,image/png,image/gif')
  })

  it('uploads a chosen picture with a progress bar; Send pressed meanwhile waits for it, then sends it with the text', async () => {
    const fake = withHistory()
    const upload = fake.holds('uploads:start')
    await openBookClub(fake)

    await choose(png('view.png', 1000))

    const item = within(attachments()).getByRole('listitem')
    expect(within(item).getByRole('img', { name: 'view.png' })).toHaveAttribute('src', 'blob:preview-1')
    expect(within(item).getByRole('button', { name: 'Remove image' })).toBeInTheDocument()
    const [request] = fake.callsTo('uploads:start')
    expect(request?.contentType).toBe('image/png')
    expect(request?.bytes).toBeInstanceOf(Uint8Array)
    expect(request?.bytes.length).toBe(1000)
    fake.emit('uploads:progress', { uploadId: request?.uploadId ?? '', sentBytes: 400, totalBytes: 1000 })
    await waitFor(() => expect(within(item).getByRole('progressbar', { name: 'Uploading view.png' })).toHaveAttribute('value', '400'))
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Look' } })
    await fireEvent.click(sendButton())
    expect(await screen.findByText('Sending once the picture has uploaded…')).toHaveAttribute('role', 'status')
    expect(sendButton()).toBeDisabled()
    expect(fake.callsTo('messages:send')).toEqual([])

    upload.resolve({ url: PICTURE_URL })
    await waitFor(() => expect(fake.callsTo('messages:send')).toHaveLength(1))
    expect(fake.callsTo('messages:send')[0]).toMatchObject({ text: 'Look', attachments: [{ type: 'image', url: PICTURE_URL }] })
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument())
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1')
  })

  it('sends pictures without text', async () => {
    const fake = withHistory()
    await openBookClub(fake)
    await choose(png('a.png'), png('b.png'))
    await waitFor(() => expect(sendButton()).toBeEnabled())
    await fireEvent.click(sendButton())
    await waitFor(() => expect(fake.callsTo('messages:send')).toHaveLength(1))
    expect(fake.callsTo('messages:send')[0]).toMatchObject({ text: '', attachments: [{ type: 'image' }, { type: 'image' }] })
  })

  it('keeps a picture attached while the message before it was on its way, for the next message', async () => {
    const fake = withHistory()
    let accept: () => void = () => undefined
    const accepted = new Promise<void>((resolve) => (accept = resolve))
    fake.handle('messages:send', async ({ conversationId, clientId, text, attachments }) => {
      if (fake.callsTo('messages:send').length === 1) await accepted
      return { ok: true, value: pending({ conversationId, clientId, text, ...(attachments === undefined ? {} : { attachments }) }) }
    })
    await openBookClub(fake)
    const box = screen.getByRole('textbox', { name: 'Message' })
    await fireEvent.input(box, { target: { value: 'Here is what I drew' } })
    await fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(fake.callsTo('messages:send')).toHaveLength(1))

    await choose(png('red.png'))
    await fireEvent.input(box, { target: { value: 'Here is what I drewa red square' } })
    accept()

    await waitFor(() => expect(box).toHaveValue('a red square'))
    expect(within(attachments()).getByRole('img', { name: 'red.png' })).toBeInTheDocument()
    expect(fake.callsTo('messages:send')[0]).toMatchObject({ text: 'Here is what I drew' })
    expect(fake.callsTo('messages:send')[0]?.attachments).toBeUndefined()
    expect(fake.callsTo('uploads:cancel')).toEqual([])

    await waitFor(() => expect(sendButton()).toBeEnabled())
    await fireEvent.click(sendButton())
    await waitFor(() => expect(fake.callsTo('messages:send')).toHaveLength(2))
    expect(fake.callsTo('messages:send')[1]).toMatchObject({ text: 'a red square', attachments: [{ type: 'image', url: PICTURE_URL }] })
  })

  it('sends nothing when a picture Send waits for is cancelled, says so, and keeps the draft', async () => {
    const fake = withHistory()
    fake.holds('uploads:start')
    await openBookClub(fake)
    await choose(png('view.png'))
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Look' } })
    await fireEvent.click(sendButton())
    await screen.findByText('Sending once the picture has uploaded…')

    await fireEvent.click(within(attachments()).getByRole('button', { name: 'Cancel upload' }))

    expect(await screen.findByText('Not sent: a picture did not upload. Retry it or remove it, then send.')).toHaveAttribute('role', 'alert')
    expect(fake.callsTo('messages:send')).toEqual([])
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Look')
    expect(within(attachments()).getByRole('img', { name: 'view.png' })).toBeInTheDocument()
  })

  it('keeps a retried upload that went through, whatever the cancelled attempt answers late', async () => {
    const fake = withHistory()
    const answers: { resolve(value: { url: string }): void; reject(): void }[] = []
    fake.handle('uploads:start', () => new Promise((resolve) => {
      answers.push({
        resolve: (value) => resolve({ ok: true, value }),
        reject: () => resolve({ ok: false, error: { code: 'CONFLICT', message: 'The upload was cancelled.' } })
      })
    }))
    await openBookClub(fake)
    await choose(png('view.png'))
    const item = within(attachments()).getByRole('listitem')
    await fireEvent.click(within(item).getByRole('button', { name: 'Cancel upload' }))
    await fireEvent.click(within(item).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(answers).toHaveLength(2))
    const [first, second] = fake.callsTo('uploads:start')
    expect(first?.uploadId).not.toBe(second?.uploadId)

    answers[1]?.resolve({ url: PICTURE_URL })
    await waitFor(() => expect(within(item).queryByRole('progressbar')).not.toBeInTheDocument())
    answers[0]?.reject()
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Look' } })
    await waitFor(() => expect(sendButton()).toBeEnabled())
    expect(item).not.toHaveTextContent('Upload failed')
  })

  it('refuses a file that is not a JPEG, PNG or GIF before any upload, saying so', async () => {
    const fake = withHistory()
    await openBookClub(fake)
    await choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }))
    expect(screen.getByRole('alert')).toHaveTextContent('“notes.txt” is not a JPEG, PNG or GIF picture, so it cannot be sent.')
    expect(screen.queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument()
    expect(fake.callsTo('uploads:start')).toEqual([])
  })

  it('refuses a picture over 10 MB before any upload', async () => {
    const fake = withHistory()
    await openBookClub(fake)
    await choose(png('huge.png', MAX_IMAGE_BYTES + 1))
    expect(screen.getByRole('alert')).toHaveTextContent('“huge.png” is larger than 10 MB, so it cannot be sent.')
    expect(fake.callsTo('uploads:start')).toEqual([])
  })

  it('takes ten pictures and refuses an eleventh, saying why', async () => {
    const fake = withHistory()
    await openBookClub(fake)
    await choose(...Array.from({ length: 10 }, (_, index) => png(`p${index + 1}.png`)))
    await choose(png('p11.png'))
    expect(within(attachments()).getAllByRole('listitem')).toHaveLength(10)
    expect(screen.getByRole('alert')).toHaveTextContent('A message can carry at most 10 pictures, so “p11.png” was not added.')
    expect(fake.callsTo('uploads:start')).toHaveLength(10)
  })

  it('keeps the draft when an upload fails, and offers Retry', async () => {
    const fake = withHistory().fails('uploads:start', 'NETWORK', 'Cannot reach the service.')
    await openBookClub(fake)
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'With a view' } })
    await choose(png('view.png'))

    const item = within(attachments()).getByRole('listitem')
    await waitFor(() => expect(item).toHaveTextContent('Upload failed. Cannot reach the service.'))
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('With a view')
    expect(sendButton()).toBeDisabled()

    fake.returns('uploads:start', { url: PICTURE_URL })
    await fireEvent.click(within(item).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(sendButton()).toBeEnabled())
    expect(fake.callsTo('uploads:start')).toHaveLength(2)
  })

  it('cancels an upload, keeping the picture to retry', async () => {
    const fake = withHistory()
    fake.holds('uploads:start')
    await openBookClub(fake)
    await choose(png('view.png'))
    const item = within(attachments()).getByRole('listitem')

    await fireEvent.click(within(item).getByRole('button', { name: 'Cancel upload' }))

    const [started] = fake.callsTo('uploads:start')
    expect(fake.callsTo('uploads:cancel')).toEqual([{ uploadId: started?.uploadId }])
    expect(item).toHaveTextContent('Upload cancelled.')
    expect(within(item).getByRole('button', { name: 'Retry' })).toBeInTheDocument()
  })

  it('removes a picture, cancelling its upload', async () => {
    const fake = withHistory()
    fake.holds('uploads:start')
    await openBookClub(fake)
    await choose(png('view.png'))
    await fireEvent.click(within(attachments()).getByRole('button', { name: 'Remove image' }))
    expect(screen.queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument()
    expect(fake.callsTo('uploads:cancel')).toHaveLength(1)
  })

  it('keeps the waiting pictures of a conversation while another is open', async () => {
    const climbing = conversation({ id: 'g2', name: 'Climbing' })
    const fake = withHistory()
      .returns('conversations:list', [bookClub, climbing])
      .handle('conversations:open', ({ conversationId }) => ({
        ok: true,
        value: { conversation: conversationId === 'g2' ? climbing : bookClub, messages: [], hasOlder: false, pending: [] }
      }))
    await openBookClub(fake)
    await choose(png('view.png'))
    await waitFor(() => expect(sendButton()).toBeEnabled())

    await fireEvent.click(screen.getByRole('button', { name: /Climbing/ }))
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Climbing' })).toBeInTheDocument())
    expect(screen.queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument()
    await fireEvent.click(screen.getByRole('button', { name: /Book club/ }))

    const tray = await screen.findByRole('list', { name: 'Attachments' })
    expect(within(tray).getByRole('img', { name: 'view.png' })).toBeInTheDocument()
    expect(fake.callsTo('uploads:cancel')).toEqual([])
  })

  it('takes a picture pasted into the message box', async () => {
    const fake = withHistory()
    await openBookClub(fake)
    const pasted = new Event('paste', { bubbles: true, cancelable: true })
    Object.defineProperty(pasted, 'clipboardData', { value: { files: [png('pasted.png')] } })
    screen.getByRole('textbox', { name: 'Message' }).dispatchEvent(pasted)
    expect(pasted.defaultPrevented).toBe(true)
    const tray = await screen.findByRole('list', { name: 'Attachments' })
    expect(within(tray).getByRole('img', { name: 'pasted.png' })).toBeInTheDocument()
  })

  it('takes a picture dropped anywhere on the conversation', async () => {
    const fake = withHistory([message({ conversationId: 'g1', text: 'Hello' })])
    await openBookClub(fake)
    const dataTransfer = { types: ['Files'], files: [png('dropped.png')], dropEffect: 'none' }
    const over = Object.assign(new Event('dragover', { bubbles: true, cancelable: true }), { dataTransfer })
    const drop = Object.assign(new Event('drop', { bubbles: true, cancelable: true }), { dataTransfer })
    const history = screen.getByRole('list', { name: 'Messages' })
    history.dispatchEvent(over)
    history.dispatchEvent(drop)
    expect(over.defaultPrevented).toBe(true)
    expect(drop.defaultPrevented).toBe(true)
    const tray = await screen.findByRole('list', { name: 'Attachments' })
    expect(within(tray).getByRole('img', { name: 'dropped.png' })).toBeInTheDocument()
  })
})

describe('attachments in the history', () => {
  it('shows a picture lazily, in a box of fixed height, and opens it in a viewer that closes', async () => {
    const picture = message({ conversationId: 'g1', text: '', senderName: 'Grace', attachments: [{ type: 'image', url: PICTURE_URL }] })
    await openBookClub(withHistory([picture]))

    const image = screen.getByRole('img', { name: 'Picture from Grace' })
    expect(image).toHaveAttribute('loading', 'lazy')
    expect(image).toHaveAttribute('src', PICTURE_URL)
    await fireEvent.click(screen.getByRole('button', { name: 'Picture from Grace' }))

    const viewer = screen.getByRole('dialog', { name: 'Picture from Grace' })
    expect(within(viewer).getByRole('img', { name: 'Picture from Grace' })).toHaveAttribute('src', PICTURE_URL)
    await fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('names each of several pictures by its place', async () => {
    const urls = [1, 2, 3].map((n) => `${PICTURE_URL.slice(0, -1)}${n}`)
    const pictures = message({ conversationId: 'g1', text: 'Three', senderName: 'Grace', attachments: urls.map((url) => ({ type: 'image' as const, url })) })
    await openBookClub(withHistory([pictures]))
    expect(screen.getAllByRole('img', { name: /^Picture \d of 3 from Grace$/ }).map((image) => image.getAttribute('src'))).toEqual(urls)
  })

  it('shows a picture main would not let the page load as a link to it, opened through main, and loads nothing', async () => {
    const elsewhere = 'https://tracker.example.test/pixel.gif?who=ada'
    const fake = withHistory([message({ conversationId: 'g1', text: 'Look', senderName: 'Grace', attachments: [{ type: 'imageLink', url: elsewhere }] })])
    await openBookClub(fake)

    const item = within(screen.getByRole('list', { name: 'Messages' })).getByRole('listitem')
    expect(item.querySelectorAll('img')).toHaveLength(0)
    expect(item).toHaveTextContent(`Picture from Grace, not shown here: ${elsewhere}`)
    const link = within(item).getByRole('link', { name: elsewhere })
    expect(link).toHaveAttribute('href', elsewhere)
    const click = new MouseEvent('click', { bubbles: true, cancelable: true })
    link.dispatchEvent(click)
    expect(click.defaultPrevented).toBe(true)
    expect(fake.callsTo('shell:openExternal')).toEqual([{ url: elsewhere }])
  })

  it('counts only the pictures it shows when it names them by their place', async () => {
    const attachments = [
      { type: 'image' as const, url: PICTURE_URL },
      { type: 'imageLink' as const, url: 'https://elsewhere.example.test/a.png' }
    ]
    await openBookClub(withHistory([message({ conversationId: 'g1', text: 'Two', senderName: 'Grace', attachments })]))
    expect(screen.getByRole('img', { name: 'Picture from Grace' })).toHaveAttribute('src', PICTURE_URL)
    expect(screen.getByRole('link', { name: 'https://elsewhere.example.test/a.png' })).toBeInTheDocument()
  })

  it("links a location's name to a map page, opened through main", async () => {
    const fake = withHistory([
      message({ conversationId: 'g1', text: 'Here', attachments: [{ type: 'location', lat: '64.148430', lng: '-21.9355508', name: 'Harpa' }] })
    ])
    await openBookClub(fake)

    const link = screen.getByRole('link', { name: 'Harpa' })
    const click = new MouseEvent('click', { bubbles: true, cancelable: true })
    link.dispatchEvent(click)

    expect(click.defaultPrevented).toBe(true)
    expect(fake.callsTo('shell:openExternal')).toEqual([{ url: 'https://www.openstreetmap.org/?mlat=64.14843&mlon=-21.9355508#map=16/64.14843/-21.9355508' }])
  })

  it('shows a location without usable coordinates as its name alone', async () => {
    await openBookClub(withHistory([message({ conversationId: 'g1', text: '', attachments: [{ type: 'location', lat: '', lng: 'east', name: 'Somewhere' }] })]))
    expect(screen.getByText('Somewhere')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Somewhere' })).not.toBeInTheDocument()
  })

  it('says how many pictures a message still being sent carries', async () => {
    const picture = { type: 'image' as const, url: PICTURE_URL }
    const fake = withHistory().returns('conversations:open', {
      conversation: bookClub,
      messages: [],
      hasOlder: false,
      pending: [
        pending({ conversationId: 'g1', clientId: 'c-00000001', text: '', attachments: [picture, picture] }),
        pending({ conversationId: 'g1', clientId: 'c-00000002', text: 'One', attachments: [picture] })
      ]
    })
    await openBookClub(fake)
    const [both, one] = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem')
    expect(both).toHaveTextContent('With 2 pictures')
    expect(one).toHaveTextContent('One With a picture')
  })

  it('says which place a message still being sent carries', async () => {
    const place = { type: 'location' as const, lat: '46.5583', lng: '7.8353', name: 'Trailhead' }
    const fake = withHistory().returns('conversations:open', {
      conversation: bookClub,
      messages: [],
      hasOlder: false,
      pending: [
        pending({ conversationId: 'g1', clientId: 'c-00000001', text: '', attachments: [place] }),
        pending({ conversationId: 'g1', clientId: 'c-00000002', text: '', attachments: [{ ...place, name: '' }] })
      ]
    })
    await openBookClub(fake)
    const [named, unnamed] = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem')
    expect(named).toHaveTextContent('A location: Trailhead')
    expect(named).not.toHaveTextContent('picture')
    expect(unnamed).toHaveTextContent(/A location Sending…$/)
  })

  it("shows an emoji attachment's placeholders as the text they are in", async () => {
    const withEmoji = message({ conversationId: 'g1', text: 'Nice \uFFFD!', attachments: [{ type: 'emoji', placeholder: '\uFFFD', charmap: [[1, 62]] }] })
    await openBookClub(withHistory([withEmoji]))
    const item = within(screen.getByRole('list', { name: 'Messages' })).getByRole('listitem')
    expect(item).toHaveTextContent('Nice \uFFFD!')
    expect(within(item).queryByRole('img', { name: /Picture/ })).not.toBeInTheDocument()
  })
})
