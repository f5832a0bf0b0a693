// Electron's transport for the contract: one `ipcMain.handle` per channel, each refusing any
// caller but the app's own page in the main window's top frame, then the shared dispatch.
// Main → renderer events flow once the page has said `app:ready`, and are held again from the
// moment it reloads or navigates until it says so again.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { INVOKE_CHANNELS, type IpcResult } from '@shared/window-api'
import type { Log } from '../log/log'
import type { Dispatch } from '../window-api/dispatch'
import type { EventQueue } from '../window-api/event-queue'

export interface IpcTransportOptions {
  dispatch: Dispatch
  events: EventQueue
  /** The main window's contents, or nothing while there is no window. */
  appContents: () => WebContents | null
  /** Whether a frame URL is the app's own page (see `app-url.ts`). */
  isAppUrl: (url: string) => boolean
  log: Log
}

const refused: IpcResult<never> = {
  ok: false,
  error: { code: 'FORBIDDEN', message: 'Only the app window may ask for that.' }
}

/** Registers every channel; returns a function that removes them again. */
export function registerIpcTransport(options: IpcTransportOptions): () => void {
  const watched = new WeakSet<WebContents>()

  const deliverTo = (contents: WebContents) => (event: string, payload: unknown) => {
    if (!contents.isDestroyed()) contents.send(event, payload)
  }

  // The page is going away (reload, navigation, crash, close): hold events until the next app:ready.
  const watchDeparture = (contents: WebContents): void => {
    if (watched.has(contents)) return
    watched.add(contents)
    contents.on('did-start-navigation', (details) => {
      // A navigation the page starts itself may still be refused by `will-navigate`, which Electron
      // emits after this event (electron_navigation_throttle.cc), so only one the browser started
      // (a reload from the menu, loadURL) holds events here; the page's own wait for their commit.
      if (details.isMainFrame && !details.isSameDocument && !details.initiator) options.events.detach()
    })
    contents.on('did-navigate', () => options.events.detach())
    contents.on('render-process-gone', () => options.events.detach())
    contents.once('destroyed', () => options.events.detach())
  }

  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, payload: unknown) => {
      if (!isTrustedSender(event, options)) {
        options.log.warn(`refused a ${channel} call from a frame that is not the app`, {
          url: event.senderFrame?.url
        })
        return refused
      }
      const result = await options.dispatch(channel, payload)
      if (channel === 'app:ready' && result.ok) {
        watchDeparture(event.sender)
        options.events.attach(deliverTo(event.sender))
      }
      return result
    })
  }

  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel)
  }
}

export function isTrustedSender(event: IpcMainInvokeEvent, options: Pick<IpcTransportOptions, 'appContents' | 'isAppUrl'>): boolean {
  const contents = options.appContents()
  const frame = event.senderFrame
  if (contents === null || frame === null || frame === undefined) return false
  return event.sender === contents && frame.parent === null && options.isAppUrl(frame.url)
}
