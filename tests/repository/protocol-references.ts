// Which protocol references the repository's own documents can answer, and which references in
// the source tree they cannot. The documents under docs/ are the only source of truth: sections
// are their `§N` / `§N.M` headings, clarifications the numbered list of the "Clarifications"
// section, operation ids the first column of every table headed `| Id |`. Nothing here knows a
// section or an id by heart except the letters ids are made of.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

export interface Operation {
  id: string
  methodAndPath: string
  app: string
  /** Where its row is, as `docs/<file>:<line>`. */
  row: string
}

export interface ProtocolIndex {
  /** `"10"`, `"10.2"`, … for every `§` heading. */
  sections: Set<string>
  /** The section whose numbered list holds the clarifications (`§18.N`, `§18 #N`), if any. */
  clarificationSection: string | null
  clarifications: Set<number>
  operations: Map<string, Operation>
  /** Problems with the documents themselves (a duplicated id, a row without a path, …). */
  problems: string[]
}

export interface Finding {
  /** Repository-relative, with `/` separators. */
  file: string
  line: number
  reference: string
  reason: string
}

/** The letters operation ids are made of, longest first so `MS4` is not read as `M` + junk. */
export const OPERATION_PREFIXES = ['MU', 'MB', 'MS', 'RX', 'PL', 'L', 'V', 'M', 'T', 'P', 'U', 'I', 'B', 'R', 'G', 'C'] as const

const OPERATION_ID = new RegExp(`\\b(?:${OPERATION_PREFIXES.join('|')})\\d+\\b`, 'g')

/**
 * `§14`, `§14.2`, `§18 #27`, and ranges `§3–§13` / `§15.8–15.9` (en dash or hyphen, the second
 * `§` optional). A range's dash must touch both ends, so prose such as "§2.5 - then" is no range.
 */
const SECTION_REFERENCE = /§\s?(\d+(?:\.\d+)?)(?:\s+#(\d+))?(?:[–-]§?(\d+(?:\.\d+)?))?/g

/** The contract's own file, which lives outside the repository: code must cite docs/ instead. */
const OUTSIDE_CONTRACT = /\bservice-api\.md\b/g

const SCANNED_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.svelte', '.md', '.html', '.css', '.sh', '.yml', '.yaml', '.sql'])
/** Directory names never scanned, wherever they sit: dependencies and build output. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'out', 'dist', 'coverage', '.test-results'])
/** Recorded payloads of the real service: data, not prose, and not ours to edit. */
const SKIPPED_PATHS = new Set(['tests/fixtures/recorded'])

export function loadProtocolIndex(docsDirectory: string, repositoryRoot: string): ProtocolIndex {
  const index: ProtocolIndex = { sections: new Set(), clarificationSection: null, clarifications: new Set(), operations: new Map(), problems: [] }
  for (const file of markdownFiles(docsDirectory)) readDocument(file, toRepositoryPath(repositoryRoot, file), index)
  return index
}

function readDocument(file: string, name: string, index: ProtocolIndex): void {
  const lines = readFileSync(file, 'utf8').split('\n')
  let currentSection: string | null = null
  let tableColumns: string[] | null = null
  lines.forEach((text, offset) => {
    const where = `${name}:${offset + 1}`
    const heading = /^#{1,6}\s+§(\d+(?:\.\d+)?)\s/.exec(text)
    if (heading?.[1] !== undefined) {
      currentSection = heading[1]
      if (index.sections.has(currentSection)) index.problems.push(`${where}: §${currentSection} is a heading twice`)
      index.sections.add(currentSection)
      if (/^#{1,6}\s+§\d+\s+Clarifications\s*$/.test(text)) index.clarificationSection = currentSection
      return
    }
    const listItem = /^(\d+)\.\s/.exec(text)
    if (listItem?.[1] !== undefined && currentSection !== null && currentSection === index.clarificationSection) {
      const number = Number(listItem[1])
      if (number !== index.clarifications.size + 1) index.problems.push(`${where}: clarification ${number} is out of sequence`)
      index.clarifications.add(number)
      return
    }
    if (!text.startsWith('|')) {
      tableColumns = null
      return
    }
    const cells = tableCells(text)
    if (tableColumns === null) {
      tableColumns = cells
      return
    }
    if (tableColumns[0] !== 'Id' || cells.every((cell) => /^-+$/.test(cell))) return
    readOperationRow(cells, tableColumns, where, index)
  })
}

function readOperationRow(cells: string[], columns: string[], where: string, index: ProtocolIndex): void {
  const [id = ''] = cells
  const methodAndPath = cells[columns.indexOf('Method and path')] ?? ''
  const app = cells[columns.indexOf('App')] ?? ''
  if (!new RegExp(`^(?:${OPERATION_PREFIXES.join('|')})\\d+$`).test(id)) {
    index.problems.push(`${where}: "${id}" is not an operation id`)
    return
  }
  const existing = index.operations.get(id)
  if (existing !== undefined) index.problems.push(`${where}: ${id} already has a row at ${existing.row}`)
  if (!/^(?:GET|POST|PUT|DELETE) `[^`]+`/.test(methodAndPath)) index.problems.push(`${where}: ${id} has no method and path`)
  if (app === '') index.problems.push(`${where}: ${id} does not say what the app uses it for`)
  index.operations.set(id, { id, methodAndPath, app, row: where })
}

/** The cells of a markdown table row; `\|` inside a cell is not a separator. */
function tableCells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

/** Every reference under `roots` (relative to `repositoryRoot`) that `index` cannot answer. */
export function findUnresolvedReferences(repositoryRoot: string, roots: readonly string[], index: ProtocolIndex): Finding[] {
  const findings: Finding[] = []
  for (const root of roots) {
    for (const file of sourceFiles(join(repositoryRoot, root), repositoryRoot)) {
      const name = toRepositoryPath(repositoryRoot, file)
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((text, offset) => {
          for (const finding of unresolvedOnLine(text, index)) findings.push({ file: name, line: offset + 1, ...finding })
        })
    }
  }
  return findings
}

function unresolvedOnLine(text: string, index: ProtocolIndex): Omit<Finding, 'file' | 'line'>[] {
  const found: Omit<Finding, 'file' | 'line'>[] = []
  for (const match of text.matchAll(SECTION_REFERENCE)) {
    const [reference, section = '', clarification, rangeEnd] = match
    const reason =
      clarification !== undefined
        ? clarificationProblem(section, Number(clarification), index)
        : (sectionProblem(section, index) ?? (rangeEnd === undefined ? null : sectionProblem(rangeEnd, index)))
    if (reason !== null) found.push({ reference, reason })
  }
  for (const match of withoutNonProse(text).matchAll(OPERATION_ID)) {
    if (!index.operations.has(match[0])) found.push({ reference: match[0], reason: 'no operation table in docs/ has this id' })
  }
  for (const match of text.matchAll(OUTSIDE_CONTRACT)) {
    found.push({ reference: match[0], reason: 'names a document outside the repository; cite docs/protocol.md' })
  }
  return found
}

function sectionProblem(section: string, index: ProtocolIndex): string | null {
  if (index.sections.has(section)) return null
  const [major, minor] = section.split('.')
  // `§18.27` is clarification 27 when §18 holds the clarifications and has no subsection 18.27.
  if (minor !== undefined && major === index.clarificationSection) return clarificationProblem(major, Number(minor), index)
  return `docs/ has no heading §${section}`
}

function clarificationProblem(section: string, number: number, index: ProtocolIndex): string | null {
  if (section !== index.clarificationSection) return `§${section} is not the clarifications section`
  return index.clarifications.has(number) ? null : `docs/ has no clarification ${number} in §${section}`
}

/**
 * The line with the two kinds of text where an id-shaped word is not an operation id blanked
 * out: percent-encoded bytes (`%C0%80` in URL junk) and SVG path data (`d="…"`, where a letter
 * and a number are a drawing command such as a move-to). Colours need no rule: `#C2C2C2` has no word boundary after `C2`.
 */
function withoutNonProse(text: string): string {
  return text
    .replace(/%[0-9A-Fa-f]{2}/g, (escape) => ' '.repeat(escape.length))
    .replace(/\sd=(["'])[^"']*\1/g, (attribute) => ' '.repeat(attribute.length))
}

function* sourceFiles(directory: string, repositoryRoot: string): Generator<string> {
  let entries: string[]
  try {
    entries = readdirSync(directory).sort()
  } catch {
    return
  }
  for (const entry of entries) {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry) && !SKIPPED_PATHS.has(toRepositoryPath(repositoryRoot, path))) yield* sourceFiles(path, repositoryRoot)
    } else if (SCANNED_EXTENSIONS.has(extensionOf(entry))) {
      yield path
    }
  }
}

function markdownFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((entry) => entry.endsWith('.md'))
    .sort()
    .map((entry) => join(directory, entry))
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot)
}

function toRepositoryPath(repositoryRoot: string, path: string): string {
  return relative(repositoryRoot, path).split(sep).join('/')
}

/** `file:line: reference — reason`, one finding per line, for a failure message. */
export function describeFindings(findings: readonly Finding[]): string {
  return findings.map((finding) => `${finding.file}:${finding.line}: ${finding.reference} — ${finding.reason}`).join('\n')
}

/**
 * Relative links in `files` whose target file, or heading anchor, does not exist. Anchors are
 * made the way GitHub makes them: lower case, punctuation (`§` and backticks included) dropped,
 * each space a hyphen, and `-1`, `-2`, … for a repeated heading.
 */
export function findBrokenLinks(repositoryRoot: string, files: readonly string[]): Finding[] {
  const findings: Finding[] = []
  for (const name of files) {
    const file = join(repositoryRoot, name)
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, offset) => {
        for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = match[1] ?? ''
          if (/^[a-z]+:/i.test(target)) continue
          const reason = linkProblem(file, target)
          if (reason !== null) findings.push({ file: name, line: offset + 1, reference: target, reason })
        }
      })
  }
  return findings
}

/** What is wrong with a link from `file` to `target` (`path`, `path#anchor` or `#anchor`), or null. */
function linkProblem(file: string, target: string): string | null {
  const [path = '', anchor] = target.split('#')
  const linked = path === '' ? file : join(file, '..', path)
  if (!exists(linked)) return 'no such file'
  if (anchor === undefined || !linked.endsWith('.md')) return null
  return headingAnchors(linked).has(anchor) ? null : `no heading with the anchor #${anchor}`
}

function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>()
  let inCode = false
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) inCode = !inCode
    const heading = inCode ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading?.[1] === undefined) continue
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    let unique = slug
    for (let repeat = 1; anchors.has(unique); repeat += 1) unique = `${slug}-${repeat}`
    anchors.add(unique)
  }
  return anchors
}

function exists(path: string): boolean {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}
