// What the renderer sees of the preload (or of browser mode's bridge): the contract, and nothing else.
import type { Api } from '@shared/window-api'

declare global {
  interface Window {
    api: Api
  }
}

export {}
