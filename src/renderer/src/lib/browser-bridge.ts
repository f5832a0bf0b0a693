// Browser mode's `window.api`: the same contract the Electron preload exposes, carried over a
// WebSocket to the host that served this page (src/main/browser/host.ts; the frames are declared
// in src/shared/bridge-protocol.ts). The host printed a URL whose fragment holds a per-launch secret;
// it is taken out of the address bar at once and kept for this tab only, so a reload still works.
import { BRIDGE_PATH, encodeBinaryInvoke, type HostFrame, type PageFrame } from '@shared/bridge-protocol'
import { isEventName, isInvokeChannel, type Api, type EventName, type IpcResult } from '@shared/window-api'

const SECRET_KEY = 'parley.bridge-secret'

export interface BridgeOptions {
  target?: Window
  WebSocket?: typeof WebSocket
}

/** Installs `window.api` over the bridge socket, unless the Electron preload already did. */
export function installBrowserBridge(options: BridgeOptions = {}): void {
  const target = options.target ?? window
  if ((target as { api?: Api }).api !== undefined) return
  const secret = takeSecret(target)
  const api =
    secret === null
      ? unavailable('This page was opened without its key. Open the address `npm run web` printed.')
      : connect(target, secret, options.WebSocket ?? globalThis.WebSocket)
  // Read-only, as contextBridge makes it: page code cannot swap the bridge out.
  Object.defineProperty(target, 'api', { value: api, enumerable: true })
}

function takeSecret(target: Window): string | null {
  const fragment = new URLSearchParams(target.location.hash.slice(1))
  const secret = fragment.get('secret')
  if (secret === null) return target.sessionStorage.getItem(SECRET_KEY)
  target.sessionStorage.setItem(SECRET_KEY, secret)
  fragment.delete('secret')
  const rest = fragment.toString()
  const { pathname, search } = target.location
  target.history.replaceState(target.history.state, '', `${pathname}${search}${rest === '' ? '' : `#${rest}`}`)
  return secret
}

function connect(target: Window, secret: string, Socket: typeof WebSocket): Api {
  const scheme = target.location.protocol === 'https:' ? 'wss:' : 'ws:'
  const socket = new Socket(`${scheme}//${target.location.host}${BRIDGE_PATH}?secret=${encodeURIComponent(secret)}`)
  const pending = new Map<number, { resolve: (result: IpcResult<never>) => void; reject: (error: Error) => void }>()
  const listeners = new Map<EventName, Set<(payload: never) => void>>()
  const waiting: (string | Uint8Array<ArrayBuffer>)[] = []
  let lost: Error | null = null
  let nextId = 1

  const post = (frame: PageFrame): void => {
    // A payload with bytes in it (a picture to upload) goes as one binary message.
    const message = (frame.type === 'invoke' ? encodeBinaryInvoke(frame) : null) ?? JSON.stringify(frame)
    if (socket.readyState === Socket.OPEN) socket.send(message)
    else if (socket.readyState === Socket.CONNECTING) waiting.push(message)
  }

  // The host decides whether a notification shows by whether this tab is being looked at. The
  // events say so themselves (hasFocus() can lag behind a blur), which also lets a test act out
  // "the user looked away" by dispatching blur on the window.
  const document = target.document
  const reportFocus = (focused: boolean): void => post({ type: 'focus', focused })
  const visible = (): boolean => document.visibilityState === 'visible'
  target.addEventListener('focus', () => reportFocus(visible()))
  target.addEventListener('blur', () => reportFocus(false))
  document.addEventListener('visibilitychange', () => reportFocus(visible() && document.hasFocus()))

  socket.addEventListener('open', () => {
    for (const message of waiting.splice(0)) socket.send(message)
    reportFocus(visible() && document.hasFocus())
  })
  socket.addEventListener('message', (message: MessageEvent) => {
    const frame = JSON.parse(String(message.data)) as HostFrame
    if (frame.type === 'result') {
      pending.get(frame.id)?.resolve(frame.result as IpcResult<never>)
      pending.delete(frame.id)
    } else {
      for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload as never)
    }
  })
  socket.addEventListener('close', (event: CloseEvent) => {
    lost = new Error(event.reason === '' ? 'The connection to the app closed. Reload the page.' : event.reason)
    console.warn(`browser bridge closed (${event.code}): ${lost.message}`)
    for (const { reject } of pending.values()) reject(lost)
    pending.clear()
  })

  return {
    invoke(channel, request) {
      if (!isInvokeChannel(channel)) {
        return Promise.resolve({ ok: false, error: { code: 'VALIDATION', message: 'The app asked for something it does not offer.' } })
      }
      if (lost !== null) return Promise.reject(lost)
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        post({ type: 'invoke', id, channel, payload: request })
      })
    },
    on(event, listener) {
      if (!isEventName(event)) throw new Error(`There is no event called "${String(event)}".`)
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(listener as (payload: never) => void)
      return () => {
        set.delete(listener as (payload: never) => void)
      }
    }
  }
}

function unavailable(reason: string): Api {
  console.error(reason)
  return {
    invoke: () => Promise.reject(new Error(reason)),
    on: () => () => undefined
  }
}
