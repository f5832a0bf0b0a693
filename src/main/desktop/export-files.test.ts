import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveDialogExportFiles } from './export-files'

const electron = vi.hoisted(() => ({
  answer: { canceled: false, filePath: '' } as { canceled: boolean; filePath?: string },
  showSaveDialog: vi.fn()
}))

vi.mock('electron', () => ({ dialog: { showSaveDialog: electron.showSaveDialog } }))

let directory: string

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'parley-export-'))
  electron.showSaveDialog.mockReset()
  electron.showSaveDialog.mockImplementation(async () => electron.answer)
})

afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('saving an export where the person chooses', () => {
  it('asks with the suggested name and its type, and writes the file there in pieces, whole only once closed', async () => {
    const path = join(directory, 'Book club.html')
    electron.answer = { canceled: false, filePath: path }
    const owner = { id: 1 }
    const file = await saveDialogExportFiles(() => owner as never).create('Book club 2026-11-27.html')
    expect(electron.showSaveDialog).toHaveBeenCalledWith(owner, { defaultPath: 'Book club 2026-11-27.html', filters: [{ name: 'Web page', extensions: ['html'] }] })
    expect(file?.name).toBe('Book club.html')
    await file?.write('<!doctype html>')
    await file?.write('x'.repeat(1_000_000))
    expect(await readdir(directory)).toEqual(['Book club.html.part'])
    await file?.close()
    expect(await readdir(directory)).toEqual(['Book club.html'])
    expect((await readFile(path, 'utf8')).length).toBe(15 + 1_000_000)
  })

  it('saves nothing when the person cancels the dialog', async () => {
    electron.answer = { canceled: true, filePath: '' }
    expect(await saveDialogExportFiles(() => null).create('Chat 2026-11-27.json')).toBeNull()
    expect(electron.showSaveDialog).toHaveBeenCalledWith({ defaultPath: 'Chat 2026-11-27.json', filters: [{ name: 'JSON', extensions: ['json'] }] })
  })

  it('leaves nothing behind when the export is cancelled half way', async () => {
    electron.answer = { canceled: false, filePath: join(directory, 'half.json') }
    const file = await saveDialogExportFiles(() => null).create('half.json')
    await file?.write('{"messages": [')
    await file?.discard()
    expect(await readdir(directory)).toEqual([])
  })
})
