// The renderer's only door to main: `window.api`, limited to the channels the contract names.
// Each contract channel is its own IPC channel, so main answers exactly those names and nothing
// else reaches a handler; an unknown name never leaves this file.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { isEventName, isInvokeChannel, type Api, type IpcResult } from '@shared/window-api'

const unknownChannel: IpcResult<never> = {
  ok: false,
  error: { code: 'VALIDATION', message: 'The app asked for something it does not offer.' }
}

const api: Api = {
  invoke(channel, request) {
    if (!isInvokeChannel(channel)) return Promise.resolve(unknownChannel)
    return ipcRenderer.invoke(channel, request)
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`There is no event called "${String(event)}".`)
    // Hand the listener the payload only: the IPC event object would expose `sender` to the page.
    const forward = (_event: IpcRendererEvent, payload: Parameters<typeof listener>[0]): void => listener(payload)
    ipcRenderer.on(event, forward)
    return () => {
      ipcRenderer.removeListener(event, forward)
    }
  }
}

contextBridge.exposeInMainWorld('api', api)
