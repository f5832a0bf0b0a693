// Opening browser mode's address in the person's default browser, as Jupyter and Vite's `--open`
// do: with the platform's own opener, only where there is a screen to open it on. Opening is a
// convenience: the address is printed anyway, and a failure to open is one line of advice.
import { spawn } from 'node:child_process'

/**
 * How to open `url` in the default browser here, or why not to: `{ opener }` with the command to
 * run, or `{ skip }` with the reason, in words.
 */
export function browserOpener(url, { platform = process.platform, environment = process.env, noOpen = false } = {}) {
  if (noOpen) return { skip: '--no-open was given' }
  if (platform === 'darwin') return { opener: { command: 'open', args: [url] } }
  if (platform === 'win32') {
    // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one.
    // Verbatim, so that Node does not quote the line again; in quotes, cmd reads `&` as text.
    return { opener: { command: 'cmd', args: ['/d', '/s', '/c', `start "" "${url}"`], windowsVerbatimArguments: true } }
  }
  // Linux and the other Unixes: a desktop session sets one of these; a console or SSH session has neither.
  if (!environment.DISPLAY && !environment.WAYLAND_DISPLAY) return { skip: 'there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)' }
  return { opener: { command: 'xdg-open', args: [url] } }
}

/**
 * Runs the opener, and resolves true once it has handed the address over (exited with 0, or still
 * running after `graceMs`, as some openers stay until the browser closes), or false after printing
 * a line of advice when it could not be run or failed. It never rejects.
 */
export function openInBrowser(opener, { log = console.log, graceMs = 5_000 } = {}) {
  const advice = (why) => {
    log(`Could not open a browser (${opener.command} ${why}): open the address above yourself.`)
    return false
  }
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(opener.command, opener.args, {
        stdio: 'ignore',
        detached: true,
        windowsVerbatimArguments: opener.windowsVerbatimArguments === true
      })
    } catch (error) {
      resolve(advice(`could not be run: ${error instanceof Error ? error.message : error}`))
      return
    }
    // The browser belongs to the person, not to this script: it is neither waited for nor stopped.
    child.unref()
    const timer = setTimeout(() => resolve(true), graceMs)
    timer.unref()
    child.once('error', (error) => {
      clearTimeout(timer)
      resolve(advice(error.code === 'ENOENT' ? 'is not installed' : `could not be run: ${error.message}`))
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve(code === 0 ? true : advice(code === null ? `stopped on ${signal}` : `failed with exit code ${code}`))
    })
  })
}
