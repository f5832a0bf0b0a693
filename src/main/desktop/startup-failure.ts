// When the desktop app cannot start (most often a bad `service` setting), say so in a window:
// started from a menu or a dock, it has no terminal where the log line would be read.
import type { Log } from '../log/log'

/** The parts of Electron's `app` and `dialog` this needs, so a test can stand in for them. */
export interface StartupFailureHost {
  whenReady(): Promise<unknown>
  showErrorBox(title: string, content: string): void
  exit(code: number): void
}

export function startupFailureMessage(error: unknown, settingsFile: string): { title: string; content: string } {
  const reason = error instanceof Error ? error.message : String(error)
  return {
    title: 'Parley could not start',
    content:
      `${reason}\n\n` +
      `The service settings are read from the "service" section of ${settingsFile} ` +
      'and from the PARLEY_* environment variables. Correct them, then start Parley again.'
  }
}

/** Logs the failure, shows it in an error box, and exits with status 1. */
export async function reportStartupFailure(error: unknown, settingsFile: string, host: StartupFailureHost, log: Log): Promise<void> {
  log.error('the app could not start', error)
  try {
    // Before `ready`, Linux prints the box to stderr instead of showing it
    // (https://www.electronjs.org/docs/latest/api/dialog#dialogshowerrorboxtitle-content).
    await host.whenReady()
    const { title, content } = startupFailureMessage(error, settingsFile)
    host.showErrorBox(title, content)
  } catch (failure) {
    log.error('could not show why the app did not start', failure)
  } finally {
    host.exit(1)
  }
}
