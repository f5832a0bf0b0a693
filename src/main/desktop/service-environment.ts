// Where the Electron app may take service settings from besides its settings file. A packaged build
// takes none from its environment: any program running as the same user could otherwise start the
// signed app pointed at a port of its own, and receive the token the app decrypts from the OS
// keychain, which is what the fuses and the refusal of remote debugging are there to stop.
// Development runs (`npm start`, which starts Electron unpackaged) read PARLEY_* as browser mode does.

/** The environment `resolveServiceConfig` and Settings ▸ Service are given. */
export function serviceEnvironment(environment: Record<string, string | undefined>, packaged: boolean): Record<string, string | undefined> {
  return packaged ? {} : environment
}
