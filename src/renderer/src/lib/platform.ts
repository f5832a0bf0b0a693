// What differs by platform in the page: macOS uses Cmd where the others use Ctrl.

export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)
}

/** Whether the platform's command key (Cmd on macOS, Ctrl elsewhere) is held, and only it of the two. */
export function commandKey(event: KeyboardEvent): boolean {
  return isMac() ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
}
