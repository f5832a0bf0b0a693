// Where the page may load pictures from: the image service's origin, and the picture origins a
// deployment that serves its pictures from another host is set up with (Settings ▸ Service). Picture
// and avatar URLs come from the service as other people made them, and a page that loads one from
// a host of its sender's choosing tells that host who looked, when and from which address (a
// tracking picture). So main hands the page no picture URL on any other origin, and the page's
// Content-Security-Policy admits these origins and no others.
import { LOOPBACK_HOSTS } from './service-address'
import { isWebUrl } from './web-url'

/** The entries of the Picture origins setting, in order: separated by commas and any white space; none when empty. */
export function pictureOriginEntries(value: string): string[] {
  return value.split(/[\s,]+/).filter((entry) => entry !== '')
}

/**
 * Why `value` cannot be the Picture origins setting, or null when it can. Each entry is an origin
 * (scheme, host and port, nothing more), under the transport rule of the service's addresses: a
 * picture fetched over plain http from another computer can be read and swapped on the way.
 */
export function pictureOriginsProblem(value: string): string | null {
  for (const entry of pictureOriginEntries(value)) {
    const problem = pictureOriginProblem(entry)
    if (problem !== null) return `${entry}: ${problem}`
  }
  return null
}

function pictureOriginProblem(entry: string): string | null {
  let url: URL
  try {
    url = new URL(entry)
  } catch {
    return 'not a URL'
  }
  const allowed = `use https:, or http: only to this computer (${LOOPBACK_HOSTS.join(', ')})`
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `pictures load over https:, not ${url.protocol}; ${allowed}`
  if (url.username !== '' || url.password !== '') return 'an origin must not carry a user name or password'
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.includes(url.hostname)) return `http: to ${url.hostname} would load pictures unencrypted; ${allowed}`
  // `href` of a bare origin is the origin and a slash: anything longer has a path, a query or a fragment.
  if (url.href !== `${url.origin}/`) return 'an origin only: the scheme, the host and the port, without a path'
  return null
}

/** The settings that say where pictures load from. */
export interface PictureSources {
  /** The image service's address: pictures it stores are served from its origin. */
  imageServiceUrl: string
  /** The Picture origins setting, as typed. */
  pictureOrigins: string
}

/**
 * The origins pictures may load from under these settings, each once: the image service's, then
 * the listed ones. Settings are checked before they are put in force; should a wrong entry get
 * here all the same, it adds nothing rather than something it was not meant to.
 */
export function pictureOrigins(sources: PictureSources): string[] {
  const listed = pictureOriginEntries(sources.pictureOrigins).filter((entry) => pictureOriginProblem(entry) === null)
  const origins = [sources.imageServiceUrl, ...listed].flatMap((value) => (isWebUrl(value) ? [new URL(value).origin] : []))
  return [...new Set(origins)]
}

/** Whether the page may load the picture at `url`: a web address on one of `origins`, carrying no credentials. */
export function isAllowedPicture(url: string, origins: readonly string[]): boolean {
  if (!isWebUrl(url)) return false
  const parsed = new URL(url)
  return parsed.username === '' && parsed.password === '' && origins.includes(parsed.origin)
}
