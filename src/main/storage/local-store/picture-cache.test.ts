import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { KeptPicture } from '../../core/ports'
import { FilePictureCache, type PictureCacheOptions } from './picture-cache'

const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
const KEY = 'ab'.repeat(32)
const OTHER_KEY = 'cd'.repeat(32)

/** A picture whose bytes are easy to spot: a PNG signature, then the marker again and again. */
function picture(marker: string, size = 1000): KeptPicture {
  const bytes = Buffer.alloc(size, marker)
  bytes.set([0x89, 0x50, 0x4e, 0x47])
  return { contentType: 'image/png', bytes: new Uint8Array(bytes) }
}

/** What one sealed picture of `size` bytes takes on disk: nonce, tag, type and the bytes. */
const onDisk = (size: number): number => 12 + 16 + 1 + 'image/png'.length + size

let root: string
let directory: string
let clock: number
const opened: FilePictureCache[] = []

async function open(options: Partial<PictureCacheOptions> = {}): Promise<FilePictureCache> {
  const cache = await FilePictureCache.open({ directory, storeKey: KEY, limitBytes: 10_000, log, now: () => clock, ...options })
  opened.push(cache)
  return cache
}

function files(): string[] {
  return readdirSync(directory)
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'parley-pictures-'))
  directory = join(root, '42.pictures')
  clock = 1_700_000_000_000
})

afterEach(async () => {
  for (const cache of opened.splice(0)) await cache.close()
  rmSync(root, { recursive: true, force: true })
})

describe('the picture cache', () => {
  it('gives back what it kept, across a reopening, with neither the bytes nor the address readable on disk', async () => {
    const url = 'https://i.example.test/quarry-otter.png'
    const first = await open()
    expect(await first.keep(url, picture('otter-at-the-quarry'), clock)).toBe(true)
    expect(first.has(url)).toBe(true)
    await first.close()

    const again = await open()
    expect(again.has(url)).toBe(true)
    expect(await again.read(url)).toEqual(picture('otter-at-the-quarry'))
    expect(again.has('https://i.example.test/other.png')).toBe(false)
    for (const name of files()) {
      const contents = readFileSync(join(directory, name))
      expect(contents.includes('otter-at-the-quarry')).toBe(false)
      expect(contents.includes('image/png')).toBe(false)
      expect(`${name}${contents.toString('latin1')}`).not.toContain('quarry-otter')
    }
  })

  it('reads nothing under another key, and removes what it cannot read', async () => {
    const url = 'https://i.example.test/a.png'
    const first = await open()
    await first.keep(url, picture('a'), clock)
    await first.close()

    const other = await open({ storeKey: OTHER_KEY })
    expect(other.has(url)).toBe(false)
    await other.close()

    // A file moved under another picture's name does not open as that picture.
    const mine = await open()
    await mine.keep('https://i.example.test/b.png', picture('b'), clock)
    const [nameA, nameB] = files()
    renameSync(join(directory, nameA ?? ''), join(directory, nameB ?? ''))
    const moved = await open()
    const kept = [await moved.read(url), await moved.read('https://i.example.test/b.png')]
    expect(kept.filter((read) => read !== null)).toHaveLength(0)
    expect(files()).toEqual([])
  })

  it('keeps to its limit by letting go of what was used longest ago, and counts a read as a use', async () => {
    const cache = await open({ limitBytes: 3 * onDisk(1000) })
    for (const name of ['a', 'b', 'c']) {
      clock += 1000
      await cache.keep(`https://i.example.test/${name}.png`, picture(name), clock)
    }
    clock += 1000
    expect(await cache.read('https://i.example.test/a.png')).not.toBeNull()

    clock += 1000
    expect(await cache.keep('https://i.example.test/d.png', picture('d'), clock)).toBe(true)

    expect(['a', 'b', 'c', 'd'].filter((name) => cache.has(`https://i.example.test/${name}.png`))).toEqual(['a', 'c', 'd'])
    expect(cache.usage()).toEqual({ bytes: 3 * onDisk(1000), limitBytes: 3 * onDisk(1000), pictures: 3 })
    expect(files()).toHaveLength(3)
  })

  it('keeps the order of use across a reopening', async () => {
    const first = await open({ limitBytes: 2 * onDisk(1000) })
    await first.keep('https://i.example.test/old.png', picture('o'), clock - 60_000)
    await first.keep('https://i.example.test/new.png', picture('n'), clock)
    await first.close()

    const again = await open({ limitBytes: 2 * onDisk(1000) })
    await again.keep('https://i.example.test/newest.png', picture('x'), clock + 1000)
    expect(again.has('https://i.example.test/old.png')).toBe(false)
    expect(again.has('https://i.example.test/new.png')).toBe(true)
  })

  it('does not keep a picture used before everything it would push out', async () => {
    const cache = await open({ limitBytes: 2 * onDisk(1000) })
    await cache.keep('https://i.example.test/a.png', picture('a'), clock)
    await cache.keep('https://i.example.test/b.png', picture('b'), clock + 1)

    expect(cache.wouldKeep(clock - 5000)).toBe(false)
    expect(await cache.keep('https://i.example.test/ancient.png', picture('z'), clock - 5000)).toBe(false)
    expect(cache.has('https://i.example.test/a.png')).toBe(true)
    expect(files()).toHaveLength(2)
    expect(cache.wouldKeep(clock + 2)).toBe(true)
  })

  it('lets go at once of what no longer fits a lower limit', async () => {
    const cache = await open({ limitBytes: 10 * onDisk(1000) })
    for (let n = 0; n < 5; n += 1) await cache.keep(`https://i.example.test/${n}.png`, picture(String(n)), clock + n)

    await cache.setLimit(2 * onDisk(1000))

    expect(cache.usage().pictures).toBe(2)
    expect(cache.has('https://i.example.test/4.png')).toBe(true)
    expect(cache.has('https://i.example.test/3.png')).toBe(true)
    expect(files()).toHaveLength(2)
  })

  it('sweeps away a write a killed process left half done', async () => {
    const cache = await open()
    await cache.keep('https://i.example.test/a.png', picture('a'), clock)
    await cache.close()
    writeFileSync(join(directory, `${'0'.repeat(64)}.1234abcd.partial`), 'half a picture')

    const again = await open()
    expect(files()).toHaveLength(1)
    expect(again.usage().pictures).toBe(1)
  })

  it('keeps and reads nothing once closed', async () => {
    const cache = await open()
    await cache.keep('https://i.example.test/a.png', picture('a'), clock)
    await cache.close()
    expect(cache.has('https://i.example.test/a.png')).toBe(false)
    expect(await cache.read('https://i.example.test/a.png')).toBeNull()
    expect(await cache.keep('https://i.example.test/b.png', picture('b'), clock)).toBe(false)
  })
})
