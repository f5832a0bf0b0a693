// The one Content-Security-Policy both hosts send with the renderer. Scripts come only from the
// app itself; styles may be inline because Svelte writes `style` attributes; images may come from
// the image service (and https in general, for avatars a deployment hosts elsewhere).
// Electron adapters and browser mode both use it, so this file must not import Electron.
import { isWebUrl } from '../../shared/web-url'

export interface PolicyOptions {
  /** Where message images and avatars are loaded from (the image service's origin). */
  imageOrigins?: readonly string[]
  /** Extra `connect-src` sources: browser mode's bridge socket. */
  connectSources?: readonly string[]
}

export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'none'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:', 'https:', ...(options.imageOrigins ?? [])],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...(options.connectSources ?? [])],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
    ['object-src', "'none'"]
  ]
  return directives.map((directive) => [...new Set(directive)].join(' ')).join('; ')
}

/** The origin of a configured URL, or nothing if it is not an http(s) URL. */
export function originOf(url: string): string[] {
  return isWebUrl(url) ? [new URL(url).origin] : []
}
