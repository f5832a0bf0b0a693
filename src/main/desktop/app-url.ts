// Which page counts as the app: the built renderer's index.html, or electron-vite's dev server
// while developing. Only frames showing one of these may call main.

export interface AppLocation {
  /** Absolute path of the built renderer's index.html. */
  rendererFile: string
  /** electron-vite's dev server (`ELECTRON_RENDERER_URL`), when running in development. */
  devServerUrl?: string | undefined
}

export function isAppUrl(candidate: string, location: AppLocation): boolean {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return false
  }
  if (location.devServerUrl !== undefined) return url.origin === new URL(location.devServerUrl).origin
  const expected = new URL(fileUrlOf(location.rendererFile))
  // The query and fragment are the page's own business; the file is what must match.
  return url.protocol === 'file:' && url.host === expected.host && url.pathname === expected.pathname
}

function fileUrlOf(path: string): string {
  const forwardSlashes = path.replaceAll('\\', '/')
  const absolute = forwardSlashes.startsWith('/') ? forwardSlashes : `/${forwardSlashes}`
  return new URL(`file://${encodeURI(absolute)}`).href
}
