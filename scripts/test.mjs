// Runs every test the README promises and closes with the one line CI reads: `N passed, N failed, N skipped`.
// The app is built first (`npm run build`): the end-to-end tests serve the built renderer to
// Chromium, and a test starts browser mode's built host.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'

const resultsFile = '.test-results/vitest.json'
const extraArgs = process.argv.slice(2)

function run(command, args) {
  const { status } = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' })
  return status ?? 1
}

mkdirSync('.test-results', { recursive: true })
rmSync(resultsFile, { force: true })

if (run('npm', ['run', 'build']) !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

const vitestStatus = run('npx', [
  'vitest', 'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${resultsFile}`,
  ...extraArgs
])

if (!existsSync(resultsFile)) {
  console.log('0 passed, 1 failed')
  process.exit(vitestStatus || 1)
}
const summary = JSON.parse(readFileSync(resultsFile, 'utf8'))
// A file that fails to load has no tests of its own but must still count as a failure.
const brokenFiles = summary.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length
const failed = summary.numFailedTests + brokenFiles
const skipped = summary.numPendingTests + summary.numTodoTests
console.log(`${summary.numPassedTests} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 ? 1 : vitestStatus)
