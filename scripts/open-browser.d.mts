// Types of open-browser.mjs, for the tests that import it.
export interface Opener {
  command: string
  args: string[]
  windowsVerbatimArguments?: boolean
}

export function browserOpener(
  url: string,
  options?: { platform?: NodeJS.Platform; environment?: Record<string, string | undefined>; noOpen?: boolean }
): { opener: Opener } | { skip: string }

export function openInBrowser(opener: Opener, options?: { log?: (line: string) => void; graceMs?: number }): Promise<boolean>
