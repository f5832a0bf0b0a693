// Types of electron-shell.mjs, for the tests that import it.
export const INSTALL_FLAG: string
export function electronBinary(): string | null
export function electronInstaller(): string
export function missingElectronAdvice(): string
export function installerEnvironment(environment?: Record<string, string | undefined>): Record<string, string | undefined>
export function installElectron(options?: { log?: (line: string) => void }): string | null
