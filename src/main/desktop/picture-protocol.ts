// Electron's end of the kept pictures (hosting/kept-pictures.ts): the page is a file:// page, so a
// picture kept on this device reaches it on a scheme of the app's own, answered by main from the
// cache. The scheme is standard (its addresses parse like http's) and secure (a picture on it is no
// mixed content), and it must be declared so before the app is ready.
import type { CustomScheme, Protocol } from 'electron'
import { answerPicture, PICTURE_SCHEME, type ServePicture } from '../hosting/kept-pictures'

export const PICTURE_SCHEME_PRIVILEGES: CustomScheme = { scheme: PICTURE_SCHEME, privileges: { standard: true, secure: true } }

/** Before `app` is ready. */
export function declarePictureScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([PICTURE_SCHEME_PRIVILEGES])
}

/** On the window's session, once the app is ready. */
export function handlePictures(protocol: Pick<Protocol, 'handle'>, serve: ServePicture): void {
  protocol.handle(PICTURE_SCHEME, (request) => pictureResponse(request, serve))
}

/** The answer to one request on the scheme. */
export async function pictureResponse(request: Request, serve: ServePicture): Promise<Response> {
  if (request.method !== 'GET') return new Response(null, { status: 405 })
  const answer = await answerPicture(new URL(request.url), serve)
  return new Response(answer.body === null ? null : Buffer.from(answer.body), { status: answer.status, headers: answer.headers })
}
