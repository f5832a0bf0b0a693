// The Content-Security-Policy of the renderer, in two forms from one list of directives:
// - the header both hosts send with the page (Electron's session for http pages, browser mode's
//   host), which knows the configured image service's origin;
// - the <meta> in src/renderer/index.html, the only policy a packaged build's file:// page gets
//   (webRequest headers do not reach file:// responses), written before any service is configured.
// Scripts come only from the app itself; styles may be inline because Svelte writes `style`
// attributes and the dev server injects component CSS; images may come from the image service
// and from https in general, for avatars a deployment hosts elsewhere. No fonts, frames, objects
// or forms. Both hosts send it, so it lives in hosting/, which imports
// neither of them.
//
// Settings ▸ Service may move the app to another image service while the page is open, and a
// policy holds for the page it came with. So the header admits every image origin the transport
// rule admits (shared/service-address.ts): https anywhere, and plain http to loopback on any port,
// as the <meta> does. A new image service then needs no reload. (CSP has no syntax for an IPv6
// literal: pictures from an `http://[::1]` image service stay blocked; `localhost` works.)
import { isWebUrl } from '../../shared/web-url'

export interface PolicyOptions {
  /** Where message images and avatars are loaded from (the image service's origin). */
  imageOrigins?: readonly string[]
}

/**
 * The page's own policy cannot know the image service's origin, so it allows any port on the
 * loopback names the local service uses. A remote deployment serves images over https, which
 * both policies allow; a remote one over plain http is not supported.
 */
export const LOOPBACK_IMAGE_SOURCES = ['http://127.0.0.1:*', 'http://localhost:*'] as const

/** `frame-ancestors` is ignored (with a console warning) in a <meta> policy; only a header can carry it. */
const HEADER_ONLY = new Set(['frame-ancestors'])

type Directive = [string, ...string[]]

function directives(options: PolicyOptions): Directive[] {
  return [
    ['default-src', "'none'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    // blob: is for the composer's previews of pictures about to be sent: object URLs of the
    // user's own files, which never leave the page (the bytes go to main for the upload).
    ['img-src', "'self'", 'data:', 'blob:', 'https:', ...LOOPBACK_IMAGE_SOURCES, ...(options.imageOrigins ?? [])],
    // 'self' covers a WebSocket to the page's own host and port (CSP Level 3), which is all the page
    // opens: browser mode's bridge, the dev server's reload socket. The <meta> policy applies on
    // top of any header, so a wider connect-src in the header would change nothing.
    ['connect-src', "'self'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
    ['object-src', "'none'"]
  ]
}

function render(list: Directive[]): string {
  return list.map((directive) => [...new Set(directive)].join(' ')).join('; ')
}

/** The header: exact origins, known at run time. */
export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  return render(directives(options))
}

/** What the <meta> in src/renderer/index.html must say (a test holds the file to it). */
export function pageContentSecurityPolicy(): string {
  return render(directives({ imageOrigins: LOOPBACK_IMAGE_SOURCES }).filter(([name]) => !HEADER_ONLY.has(name)))
}

/** The origin of a configured URL, or nothing if it is not an http(s) URL. */
export function originOf(url: string): string[] {
  return isWebUrl(url) ? [new URL(url).origin] : []
}
