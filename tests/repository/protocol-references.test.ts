// A clone must explain itself: every `§` section, clarification and operation id cited in the
// source tree has its home in docs/, and the documents' own links lead somewhere.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeFindings, findBrokenLinks, findUnresolvedReferences, loadProtocolIndex, OPERATION_PREFIXES } from './protocol-references'

const repositoryRoot = resolve(import.meta.dirname, '../..')
const SCANNED_ROOTS = ['src', 'server', 'tests', 'scripts', 'docs', 'README.md'] as const
const index = loadProtocolIndex(join(repositoryRoot, 'docs'), repositoryRoot)

describe('docs/ as the home of every protocol reference', () => {
  it('reads without problems: one row per operation id, each with a method, a path and what the app uses it for', () => {
    expect(index.problems).toEqual([])
  })

  it('numbers its sections 1–18 and its clarifications 1–32, as the code cites them', () => {
    for (let section = 1; section <= 18; section += 1) expect(index.sections, `§${section}`).toContain(String(section))
    expect(index.clarificationSection).toBe('18')
    expect([...index.clarifications]).toEqual(Array.from({ length: 32 }, (_, offset) => offset + 1))
  })

  it('has a row for every operation id of every prefix, numbered without gaps', () => {
    const ids = [...index.operations.keys()]
    for (const prefix of OPERATION_PREFIXES) {
      const numbers = ids.filter((id) => new RegExp(`^${prefix}\\d+$`).test(id)).map((id) => Number(id.slice(prefix.length)))
      expect(numbers.length, `ids starting with ${prefix}`).toBeGreaterThan(0)
      expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, offset) => offset + 1))
    }
  })
})

describe('references in the source tree', () => {
  it('every §, clarification and operation id cited under src/, server/, tests/, scripts/ resolves in docs/', () => {
    // README.md and docs/ themselves are held to the same rule, so the documents cite each other correctly too.
    const findings = findUnresolvedReferences(repositoryRoot, SCANNED_ROOTS, index)
    expect(findings, describeFindings(findings)).toEqual([])
  })

  it('every relative link in docs/ and the READMEs leads to an existing file and heading', () => {
    const findings = findBrokenLinks(repositoryRoot, ['docs/README.md', 'docs/protocol.md', 'README.md', 'server/README.md'])
    expect(findings, describeFindings(findings)).toEqual([])
  })

  it('the READMEs point readers at docs/', () => {
    for (const readme of ['README.md', 'server/README.md']) {
      expect(readFileText(readme), readme).toMatch(/\]\((?:\.\.\/)?docs\/(?:README|protocol)\.md[#)]/)
    }
  })
})

describe('the checker itself', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'protocol-references-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(scratch, path)), { recursive: true })
    writeFileSync(join(scratch, path), text)
  }
  // Built at run time, so that this file does not itself cite what it invents.
  const section = (number: string): string => `\u00a7${number}`

  write(
    'docs/protocol.md',
    [
      `## ${section('1')} Things`,
      `### ${section('1.1')} A detail`,
      '| Id | Method and path | Request | App |',
      '|---|---|---|---|',
      '| MS1 | GET `/things` | none | lists things |',
      '| MS2 | POST `/things` | a thing | not yet |',
      `## ${section('2')} Clarifications`,
      '1. The first.',
      '2. The second.',
      ''
    ].join('\n')
  )
  write(
    'src/good.ts',
    [
      `// ${section('1')}, ${section('1.1')}, ${section('1')}–${section('2')}, MS1 and MS2; clarification ${section('2')} #2 and ${section('2.1')}.`,
      "const junk = ['%C0%80', '%B1']",
      `const icon = '<path d="M9 10h14a2 2 0 0 1 2 2v7"/>'`,
      ''
    ].join('\n')
  )
  write(
    'src/bad.ts',
    [
      '// fine so far',
      `// a section that is not there: ${section('99')}; a subsection: ${section('1.2')}; a range that runs off: ${section('1')}–${section('7')}`,
      `// a clarification that is not there: ${section('2')} #3 and ${section('2.9')}; one in the wrong section: ${section('1')} #1`,
      `// an id nobody documents: MS${'99'}, and the contract by its outside name: service-api${'.md'}`,
      ''
    ].join('\n')
  )
  write('src/node_modules/dependency/index.js', `// ${section('99')} MS${'99'}\n`)
  write('tests/fixtures/recorded/payload.md', `${section('99')} MS${'99'}\n`)
  write('server/out/main/index.js', `// ${section('99')}\n`)

  const scratchIndex = loadProtocolIndex(join(scratch, 'docs'), scratch)
  const findings = findUnresolvedReferences(scratch, ['src', 'server', 'tests'], scratchIndex)

  it('reads the scratch documents', () => {
    expect(scratchIndex.problems).toEqual([])
    expect([...scratchIndex.operations.keys()]).toEqual(['MS1', 'MS2'])
    expect(scratchIndex.clarificationSection).toBe('2')
  })

  it('reports each bogus section, clarification and id with its file and line', () => {
    expect(findings.map(({ file, line, reference }) => `${file}:${line} ${reference}`)).toEqual([
      `src/bad.ts:2 ${section('99')}`,
      `src/bad.ts:2 ${section('1.2')}`,
      `src/bad.ts:2 ${section('1')}–${section('7')}`,
      `src/bad.ts:3 ${section('2')} #3`,
      `src/bad.ts:3 ${section('2.9')}`,
      `src/bad.ts:3 ${section('1')} #1`,
      `src/bad.ts:4 MS${'99'}`,
      `src/bad.ts:4 service-api${'.md'}`
    ])
    expect(describeFindings(findings)).toContain(`src/bad.ts:4: MS${'99'} — no operation table in docs/ has this id`)
  })

  it('skips dependencies, build output and recorded payloads, and id-shaped text that is not prose', () => {
    expect(findings.filter((finding) => finding.file !== 'src/bad.ts')).toEqual([])
  })

  it('reports a document that gives an id twice, or an id without a path or an app use', () => {
    write(
      'broken-docs/protocol.md',
      [`## ${section('1')} Things`, '| Id | Method and path | App |', '|---|---|---|', '| G1 | GET `/a` | lists |', '| G1 | GET `/b` | lists |', '| G2 | somewhere | |', ''].join('\n')
    )
    const broken = loadProtocolIndex(join(scratch, 'broken-docs'), scratch)
    expect(broken.problems).toEqual([
      'broken-docs/protocol.md:5: G1 already has a row at broken-docs/protocol.md:4',
      'broken-docs/protocol.md:6: G2 has no method and path',
      'broken-docs/protocol.md:6: G2 does not say what the app uses it for'
    ])
  })

  it('reports links to a missing file or heading', () => {
    write(
      'links.md',
      [
        '# Links',
        '[fine](docs/protocol.md#1-things) [here](#links) [gone](docs/nothing.md) [no heading](docs/protocol.md#9-nothing) [not here](#elsewhere)',
        '[web](https://example.com/x)',
        ''
      ].join('\n')
    )
    expect(findBrokenLinks(scratch, ['links.md']).map(({ reference, reason }) => `${reference}: ${reason}`)).toEqual([
      'docs/nothing.md: no such file',
      'docs/protocol.md#9-nothing: no heading with the anchor #9-nothing',
      '#elsewhere: no heading with the anchor #elsewhere'
    ])
  })
})

function readFileText(path: string): string {
  return readFileSync(join(repositoryRoot, path), 'utf8')
}
