// The Content-Security-Policy of the renderer, in two forms from one list of directives:
// - the header both hosts send with the page (Electron's session for http pages, browser mode's
//   host), which names the origins pictures may load from under the settings in force;
// - the <meta> in src/renderer/index.html, the only policy a packaged build's file:// page can count
//   on (webRequest headers may not reach file:// responses), written before any service is configured.
// Scripts come only from the app itself; styles may be inline because Svelte writes `style`
// attributes and the dev server injects component CSS. Pictures come from the image service's
// origin and the listed picture origins (shared/picture-origins.ts), the same ones main lets
// picture URLs through for, and from what the page makes itself. Fonts come only from the app
// itself (the emoji font it ships, renderer emoji-font.css). No frames, objects or forms. Both hosts send it, so
// it lives in hosting/, which imports neither of them.
//
// A policy holds for the page it came with, and Settings ▸ Service can change the picture origins
// while the page is open. So the hosts compute the header afresh for each page they serve, and the
// page loads itself again after a Save that changes them (renderer lib/page-reload.ts).

import { PICTURE_SCHEME } from './kept-pictures'

export interface PolicyOptions {
  /** Where message pictures and avatars may load from: the image service's origin and the listed picture origins. */
  pictureOrigins?: readonly string[]
}

/**
 * The page's own pictures: 'self' for the app's files (and browser mode's kept pictures), data:
 * for the icon the page draws its unread count on (browser mode), blob: for the composer's previews
 * of pictures about to be sent, object URLs of the person's own files, which never leave the page
 * (the bytes go to main), and Electron's scheme for pictures kept on this device (kept-pictures.ts).
 */
const PAGE_OWN_IMAGES = ["'self'", 'data:', 'blob:', `${PICTURE_SCHEME}:`] as const

/**
 * What the <meta> admits for pictures besides the page's own: it is written before any service is
 * configured, so every origin the transport rule allows a picture origin (https anywhere, plain
 * http to loopback on any port). Where a header also applies, both are enforced, and the header
 * narrows it to the exact origins. (CSP has no syntax for an IPv6 literal: pictures from
 * `http://[::1]` stay blocked; `localhost` works.)
 */
export const PAGE_IMAGE_SOURCES = ['https:', 'http://127.0.0.1:*', 'http://localhost:*'] as const

/** `frame-ancestors` is ignored (with a console warning) in a <meta> policy; only a header can carry it. */
const HEADER_ONLY = new Set(['frame-ancestors'])

type Directive = [string, ...string[]]

function directives(imageSources: readonly string[]): Directive[] {
  return [
    ['default-src', "'none'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', ...PAGE_OWN_IMAGES, ...imageSources],
    ['font-src', "'self'"],
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

/** The header: the exact picture origins in force when the page is served. */
export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  return render(directives(options.pictureOrigins ?? []))
}

/** What the <meta> in src/renderer/index.html must say (a test holds the file to it). */
export function pageContentSecurityPolicy(): string {
  return render(directives(PAGE_IMAGE_SOURCES).filter(([name]) => !HEADER_ONLY.has(name)))
}
