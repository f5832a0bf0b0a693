// Where Electron saves an export: the person picks the place in the system's Save dialog, and the
// file is written there as a stream, piece by piece as core makes it. Written beside its place
// under a temporary name first and renamed when whole, so a cancelled or failed export leaves no
// half file under the name they chose.
import { dialog, type BrowserWindow } from 'electron'
import { createWriteStream, type WriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import type { ExportFile, ExportFiles } from '../core/ports'

const FILTERS: Record<string, { name: string; extensions: string[] }> = {
  '.html': { name: 'Web page', extensions: ['html'] },
  '.json': { name: 'JSON', extensions: ['json'] }
}

/** `window`: the window the dialog belongs to (null: none open, the dialog stands alone). */
export function saveDialogExportFiles(window: () => BrowserWindow | null): ExportFiles {
  return {
    async create(suggestedName) {
      const filter = FILTERS[extname(suggestedName)]
      const options = { defaultPath: suggestedName, filters: filter === undefined ? [] : [filter] }
      const owner = window()
      const chosen = owner === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(owner, options)
      if (chosen.canceled || chosen.filePath === undefined || chosen.filePath === '') return null
      return streamedFile(chosen.filePath)
    }
  }
}

/** A file written at `path` through a stream, under a temporary name beside it until closed. */
export function streamedFile(path: string): ExportFile {
  const partial = `${path}.part`
  const stream = createWriteStream(partial, { encoding: 'utf8', mode: 0o600 })
  const failed = new Promise<never>((_, reject) => stream.once('error', reject))
  // Held until asked for, so an error before then is not an unhandled rejection.
  failed.catch(() => undefined)
  return {
    name: basename(path),
    write: (text) => Promise.race([failed, written(stream, text)]),
    close: async () => {
      await Promise.race([failed, new Promise<void>((resolve) => stream.end(resolve))])
      await rename(partial, path)
    },
    discard: async () => {
      await new Promise<void>((resolve) => stream.destroy().once('close', () => resolve()))
      await rm(partial, { force: true })
    }
  }
}

/** Resolves once the stream takes more: at once unless it is full, else when it has drained. */
function written(stream: WriteStream, text: string): Promise<void> {
  return stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', () => resolve()))
}
