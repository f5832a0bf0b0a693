// One export of a conversation, as the page follows it: main fetches what is not kept yet, writes
// the file and says how far it is; in browser mode the file comes to the page in pieces, which are
// saved as a download once the last is in.
import type { ConversationId } from '@shared/conversation-id'
import type { ExportFormat, ExportProgress } from '@shared/conversation-files'
import { call, listen, messageOf } from '$lib/main-process'

const TYPES: Record<ExportFormat, string> = { html: 'text/html;charset=utf-8', json: 'application/json;charset=utf-8' }

export class ExportModel {
  readonly conversationId: ConversationId
  format = $state<ExportFormat>('html')
  status = $state<'choosing' | 'running' | 'saved' | 'cancelled' | 'error'>('choosing')
  progress = $state<ExportProgress | null>(null)
  error = $state<string | null>(null)
  /** What was saved, in words. */
  saved = $state<string | null>(null)
  #exportId: string | null = null
  #pieces: string[] = []
  /** How a file that came to the page is saved (a download); tests pass their own. */
  readonly #download: (blob: Blob, fileName: string) => void

  constructor(conversationId: ConversationId, download: (blob: Blob, fileName: string) => void = downloadBlob) {
    this.conversationId = conversationId
    this.#download = download
  }

  listen(): () => void {
    const stops = [
      listen('exports:progress', (progress) => {
        if (progress.exportId === this.#exportId) this.progress = progress
      }),
      listen('exports:chunk', ({ exportId, text }) => {
        if (exportId === this.#exportId) this.#pieces.push(text)
      })
    ]
    return () => stops.forEach((stop) => stop())
  }

  get running(): boolean {
    return this.status === 'running'
  }

  async start(): Promise<void> {
    if (this.running) return
    const exportId = crypto.randomUUID()
    this.#exportId = exportId
    this.#pieces = []
    this.progress = null
    this.error = null
    this.saved = null
    this.status = 'running'
    try {
      const result = await call('exports:start', { exportId, conversationId: this.conversationId, format: this.format })
      if (this.#exportId !== exportId) return
      if (result.status === 'cancelled') {
        this.status = 'cancelled'
        return
      }
      if (result.toPage) this.#download(new Blob(this.#pieces, { type: TYPES[this.format] }), result.fileName)
      this.saved = `Saved ${result.messages} ${result.messages === 1 ? 'message' : 'messages'} as “${result.fileName}”.`
      this.status = 'saved'
    } catch (error) {
      if (this.#exportId !== exportId) return
      this.error = messageOf(error)
      this.status = 'error'
    } finally {
      if (this.#exportId === exportId) this.#pieces = []
    }
  }

  /** Stops the export under way; its start then answers cancelled. */
  cancel(): void {
    const exportId = this.#exportId
    if (exportId === null || !this.running) return
    void call('exports:cancel', { exportId }).catch(() => undefined)
  }
}

/** Saves the file the way a page can: a link to it, with the name to save it under, clicked. */
function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once it began; a minute covers a slow start.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
