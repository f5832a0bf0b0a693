import { describe, expect, it } from 'vitest'
import { hasImageSignature, imageFileProblem, MAX_IMAGE_BYTES } from './image-files'

describe('imageFileProblem', () => {
  it('accepts JPEG, PNG and GIF up to 10 MiB', () => {
    expect(imageFileProblem({ name: 'a.png', type: 'image/png', size: 1 })).toBeNull()
    expect(imageFileProblem({ name: 'a.jpg', type: 'image/jpeg', size: MAX_IMAGE_BYTES })).toBeNull()
    expect(imageFileProblem({ name: 'a.gif', type: 'image/gif', size: 2048 })).toBeNull()
  })

  it('refuses other types, naming the file', () => {
    expect(imageFileProblem({ name: 'notes.txt', type: 'text/plain', size: 10 })).toBe('“notes.txt” is not a JPEG, PNG or GIF picture, so it cannot be sent.')
    expect(imageFileProblem({ name: 'a.webp', type: 'image/webp', size: 10 })).toMatch(/not a JPEG, PNG or GIF/)
  })

  it('refuses a file over 10 MiB and an empty one', () => {
    expect(imageFileProblem({ name: 'big.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 })).toBe('“big.png” is larger than 10 MB, so it cannot be sent.')
    expect(imageFileProblem({ name: 'none.png', type: 'image/png', size: 0 })).toBe('“none.png” is empty.')
  })
})

describe('hasImageSignature', () => {
  it('holds the bytes to the declared type', () => {
    expect(hasImageSignature('image/png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d))).toBe(true)
    expect(hasImageSignature('image/jpeg', Uint8Array.of(0x89, 0x50, 0x4e, 0x47))).toBe(false)
    expect(hasImageSignature('image/gif', Uint8Array.of(0x47, 0x49))).toBe(false)
  })
})
