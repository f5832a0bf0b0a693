// The emoji font's faces (src/renderer/src/emoji-font.css) against the package they come from:
// one face for each part of the font it ships, each covering the code points the package's own
// stylesheet gives that part, less those the text font keeps. A new version of the package that
// cuts the font differently fails here, rather than leaving emoji drawn from the wrong part, or none.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const repositoryRoot = resolve(import.meta.dirname, '../..')
const PACKAGE = '@infolektuell/noto-color-emoji'

/** Digits, # and * (the bases of keycaps) and ©, ® and ™: drawn as text, never as emoji. */
const TEXT_CODE_POINTS = ['u+23', 'u+2a', 'u+30-39', 'u+a9', 'u+ae', 'u+2122']

/** Each face's file and unicode-range, as a stylesheet declares them. */
function faces(css: string, file: RegExp): { file: string; ranges: string[] }[] {
  return [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body = '']) => ({
    file: file.exec(body)?.[1] ?? '',
    ranges: (/unicode-range:\s*([^;]+);/.exec(body)?.[1] ?? '').split(',').map((range) => range.trim().toLowerCase())
  }))
}

describe('the emoji font the app ships', () => {
  const require = createRequire(import.meta.url)
  const packageCss = readFileSync(require.resolve(`${PACKAGE}/index.css`), 'utf8')
  const appCss = readFileSync(resolve(repositoryRoot, 'src/renderer/src/emoji-font.css'), 'utf8')
  const shipped = faces(packageCss, /url\(\.\/files\/(\d+\.woff2)\)/)
  const ours = faces(appCss, new RegExp(`url\\('${PACKAGE}/files/(\\d+\\.woff2)'\\)`))

  it('has a face for every part of the font, covering what the package gives it but the text characters', () => {
    expect(shipped.length).toBeGreaterThan(5)
    expect(ours.map((face) => face.file)).toEqual(shipped.map((face) => face.file))
    for (const [index, face] of shipped.entries()) {
      expect(ours[index]?.ranges, face.file).toEqual(face.ranges.filter((range) => !TEXT_CODE_POINTS.includes(range)))
    }
  })

  it('is one family, loaded only as a COLRv1 font, hiding an emoji while its part loads rather than drawing a box', () => {
    const declarations = [...appCss.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body = '']) => body)
    for (const body of declarations) {
      expect(body).toContain("font-family: 'Parley Emoji';")
      expect(body).toContain('font-display: block;')
      expect(body).toMatch(/format\('woff2'\) tech\(color-COLRv1\)/)
    }
    for (const range of TEXT_CODE_POINTS) expect(ours.flatMap((face) => face.ranges)).not.toContain(range)
  })
})
