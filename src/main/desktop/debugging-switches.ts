// The fuses (electron-builder.yml) close Node's ways into the packaged app: ELECTRON_RUN_AS_NODE,
// NODE_OPTIONS and --inspect. Chromium has ways of its own: started with --remote-debugging-port
// or --remote-debugging-pipe, the app lets any local process drive its window, and through
// window.api act as the signed-in user. No fuse covers those, so a packaged app refuses to start
// with them; a development build keeps them for its tools.
// https://www.electronjs.org/docs/latest/tutorial/fuses

const REMOTE_DEBUGGING_SWITCHES = ['remote-debugging-port', 'remote-debugging-pipe'] as const

/** The remote-debugging switch this launch carries, if any (`hasSwitch` is `app.commandLine.hasSwitch`). */
export function remoteDebuggingSwitch(hasSwitch: (name: string) => boolean): string | null {
  return REMOTE_DEBUGGING_SWITCHES.find((name) => hasSwitch(name)) ?? null
}
