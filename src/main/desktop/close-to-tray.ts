// Closing the window while the app lives on in the tray hides it instead, the way messengers on
// Windows and Linux behave; quitting (the tray's Quit, the Dock's, the system shutting down)
// closes it for real, so the app can end.
import { app, type BrowserWindow } from 'electron'

export type ClosableWindow = Pick<BrowserWindow, 'on' | 'once' | 'hide'>

/** Hides `window` on close while `keepsRunning()` says so and the app is not quitting. */
export function closeToTray(window: ClosableWindow, keepsRunning: () => boolean): void {
  let quitting = false
  const quit = (): void => {
    quitting = true
  }
  app.on('before-quit', quit)
  // Windows ends the session (log off, shut down) without quitting the app first.
  window.on('session-end', quit)
  window.once('closed', () => app.off('before-quit', quit))
  window.on('close', (event) => {
    if (quitting || !keepsRunning()) return
    event.preventDefault()
    window.hide()
  })
}
