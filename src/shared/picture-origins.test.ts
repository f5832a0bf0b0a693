import { describe, expect, it } from 'vitest'
import { isAllowedPicture, pictureOriginEntries, pictureOrigins, pictureOriginsProblem } from './picture-origins'

describe('pictureOriginEntries', () => {
  it('splits on commas and white space, and reads empty as none', () => {
    expect(pictureOriginEntries('')).toEqual([])
    expect(pictureOriginEntries(' , ')).toEqual([])
    expect(pictureOriginEntries('https://i.example.com, https://cdn.example.com\nhttp://localhost:9000')).toEqual([
      'https://i.example.com',
      'https://cdn.example.com',
      'http://localhost:9000'
    ])
  })
})

describe('pictureOriginsProblem', () => {
  it('takes https origins anywhere and http ones on this computer, with or without the closing slash', () => {
    expect(pictureOriginsProblem('')).toBeNull()
    expect(pictureOriginsProblem('https://i.example.com, https://cdn.example.com:8443/')).toBeNull()
    expect(pictureOriginsProblem('http://127.0.0.1:9000 http://[::1]:9000 http://localhost')).toBeNull()
  })

  it('holds each entry to the transport rule of the addresses, naming the entry', () => {
    expect(pictureOriginsProblem('https://i.example.com, http://cdn.example.com')).toBe(
      'http://cdn.example.com: http: to cdn.example.com would load pictures unencrypted; use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
    )
    expect(pictureOriginsProblem('http://127.0.0.2')).toMatch(/^http:\/\/127\.0\.0\.2: http: to 127\.0\.0\.2 would load pictures unencrypted/)
    expect(pictureOriginsProblem('ftp://i.example.com')).toMatch(/^ftp:\/\/i\.example\.com: pictures load over https:, not ftp:/)
    expect(pictureOriginsProblem('i.example.com')).toBe('i.example.com: not a URL')
    expect(pictureOriginsProblem('https://me@i.example.com')).toBe('https://me@i.example.com: an origin must not carry a user name or password')
  })

  it('takes an origin only: no path, query or fragment', () => {
    for (const entry of ['https://i.example.com/pictures', 'https://i.example.com/?size=large', 'https://i.example.com/#top']) {
      expect(pictureOriginsProblem(entry)).toBe(`${entry}: an origin only: the scheme, the host and the port, without a path`)
    }
  })
})

describe('pictureOrigins', () => {
  it("is the image service's origin, then each listed origin once", () => {
    expect(pictureOrigins({ imageServiceUrl: 'http://127.0.0.1:8080/image', pictureOrigins: '' })).toEqual(['http://127.0.0.1:8080'])
    expect(
      pictureOrigins({ imageServiceUrl: 'https://image.example.com/v1', pictureOrigins: 'https://i.example.com/, https://i.example.com:443, https://image.example.com' })
    ).toEqual(['https://image.example.com', 'https://i.example.com'])
  })

  it('adds nothing for an entry that is not an origin', () => {
    expect(pictureOrigins({ imageServiceUrl: 'https://image.example.com/', pictureOrigins: 'https://i.example.com/path http://cdn.example.com nonsense' })).toEqual([
      'https://image.example.com'
    ])
  })
})

describe('isAllowedPicture', () => {
  const origins = ['https://image.example.com', 'http://127.0.0.1:8080']

  it('allows a picture on one of the origins', () => {
    expect(isAllowedPicture('https://image.example.com/i/abc.png', origins)).toBe(true)
    expect(isAllowedPicture('https://image.example.com:443/i/abc', origins)).toBe(true)
    expect(isAllowedPicture('http://127.0.0.1:8080/image/i/abc', origins)).toBe(true)
  })

  it('refuses every other origin, however close', () => {
    expect(isAllowedPicture('https://image.example.com.evil.test/i/abc', origins)).toBe(false)
    expect(isAllowedPicture('http://image.example.com/i/abc', origins)).toBe(false)
    expect(isAllowedPicture('https://image.example.com:8443/i/abc', origins)).toBe(false)
    expect(isAllowedPicture('http://127.0.0.1:8081/image/i/abc', origins)).toBe(false)
    expect(isAllowedPicture('http://localhost:8080/image/i/abc', origins)).toBe(false)
  })

  it('refuses what is not a web address, and one that carries credentials', () => {
    expect(isAllowedPicture('data:image/png;base64,iVBORw0KGgo=', origins)).toBe(false)
    expect(isAllowedPicture('javascript:alert(1)', origins)).toBe(false)
    expect(isAllowedPicture('/image/i/abc', origins)).toBe(false)
    expect(isAllowedPicture('https://me:pw@image.example.com/i/abc', origins)).toBe(false)
  })
})
