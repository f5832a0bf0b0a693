import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { UnsentCountFile } from './unsent-count'

let directory: string
let path: string

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'parley-unsent-'))
  path = join(directory, '42.unsent')
})

afterEach(() => rmSync(directory, { recursive: true, force: true }))

const failing = (): never => {
  throw new Error('the commit failed')
}

describe('the count of unsent messages beside a store', () => {
  it('reads 0 where none was ever written, and unknown where the file says something else', () => {
    expect(new UnsentCountFile(path).read()).toBe(0)
    writeFileSync(path, 'two\n')
    expect(new UnsentCountFile(path).read()).toBe('unknown')
  })

  it('holds the outbox\'s length after each change, as a number alone', () => {
    const count = new UnsentCountFile(path)
    count.around(0, 2, () => undefined)
    expect(readFileSync(path, 'utf8')).toBe('2\n')
    count.around(2, 1, () => undefined)
    expect(new UnsentCountFile(path).read()).toBe(1)
    count.around(1, 0, () => undefined)
    expect(new UnsentCountFile(path).read()).toBe(0)
  })

  it('is written before a change that adds messages, so a stop in between leaves it saying more, never fewer', () => {
    const count = new UnsentCountFile(path)
    count.around(0, 1, () => undefined)
    expect(() => count.around(1, 3, failing)).toThrow('the commit failed')
    expect(new UnsentCountFile(path).read()).toBe(3)
  })

  it('is written after a change that removes messages, so a stop in between leaves it as it was', () => {
    const count = new UnsentCountFile(path)
    count.around(0, 3, () => undefined)
    expect(() => count.around(3, 1, failing)).toThrow('the commit failed')
    expect(new UnsentCountFile(path).read()).toBe(3)
  })

  it('goes with remove()', () => {
    const count = new UnsentCountFile(path)
    count.around(0, 2, () => undefined)
    count.remove()
    expect(count.read()).toBe(0)
    count.around(0, 0, () => undefined)
    expect(readFileSync(path, 'utf8')).toBe('0\n')
  })
})
