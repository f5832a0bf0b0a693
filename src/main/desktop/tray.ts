// The system tray: an icon with the unread count, a tooltip, and a menu that drives the same
// desktop state as the window's own menus (status, mute, sign out). Shaped after Signal Desktop's
// SystemTrayService: everything it shows comes from a few fields, whose setters return early when
// nothing changed and otherwise redraw the whole tray in one idempotent render().
import { Menu, Tray, type NativeImage } from 'electron'
import type { DesktopState, MuteDuration, PresenceStatus } from '@shared/attention'
import type { StatusDisplay } from '../core/ports'
import type { Log } from '../log/log'
import { trayMenu, trayTooltip, type TrayMenuActions } from './tray-menu'

/** The window, as the tray shows and hides it. */
export interface TrayWindow {
  /** On screen: visible and not minimized. */
  isShown(): boolean
  /** Brings the window up, opening it again if it was closed. */
  show(): void
  hide(): void
}

/** The core handlers the menu calls; a failure is logged, and the state shown stays what core says. */
export interface TrayActions {
  setStatus(status: PresenceStatus): Promise<unknown>
  mute(duration: MuteDuration): Promise<unknown>
  unmute(): Promise<unknown>
  signOut(): Promise<unknown>
  quit(): void
}

export interface TrayServiceOptions {
  /** The tray's image for an unread count (tray-icon.ts). */
  icon: (unreadCount: number) => NativeImage
  window: TrayWindow
  actions: TrayActions
  log: Log
  /** Makes the system's tray icon; tests pass a fake. */
  createTray?: (image: NativeImage) => Tray
  /** Unix milliseconds. */
  now?: () => number
}

export class TrayService implements StatusDisplay {
  readonly #options: TrayServiceOptions
  readonly #createTray: (image: NativeImage) => Tray
  readonly #now: () => number
  #tray: Tray | null = null
  #state: DesktopState | null = null
  #signedIn = false
  /** The count the icon was last drawn with, so an unchanged one is not drawn again. */
  #iconCount: number | null = null

  constructor(options: TrayServiceOptions) {
    this.#options = options
    this.#createTray = options.createTray ?? ((image) => new Tray(image))
    this.#now = options.now ?? Date.now
  }

  /** The desktop state changed: the tray appears with the first one. */
  show(state: DesktopState): void {
    if (this.#state !== null && JSON.stringify(this.#state) === JSON.stringify(state)) return
    this.#state = state
    this.#render()
  }

  /** Someone signed in or out: Sign out is offered only while someone is signed in. */
  setSignedIn(signedIn: boolean): void {
    if (signedIn === this.#signedIn) return
    this.#signedIn = signedIn
    this.#render()
  }

  /** Whether closing the window should leave the app running here: there is a tray, and the setting says so. */
  get keepsAppRunning(): boolean {
    return this.#tray !== null && this.#state !== null && this.#state.settings.keepRunningInTray
  }

  destroy(): void {
    this.#tray?.destroy()
    this.#tray = null
    this.#iconCount = null
  }

  #render(): void {
    const state = this.#state
    if (state === null) return
    const tray = this.#tray ?? this.#create(state.unreadCount)
    if (state.unreadCount !== this.#iconCount) {
      tray.setImage(this.#options.icon(state.unreadCount))
      this.#iconCount = state.unreadCount
    }
    tray.setToolTip(trayTooltip(state.unreadCount))
    // Built afresh each time: on Linux a changed menu shows only once it is set again.
    tray.setContextMenu(Menu.buildFromTemplate(trayMenu({ state, signedIn: this.#signedIn, now: this.#now() }, this.#menuActions())))
  }

  #create(unreadCount: number): Tray {
    const tray = this.#createTray(this.#options.icon(unreadCount))
    this.#iconCount = unreadCount
    tray.on('click', () => this.#toggleWindow())
    this.#tray = tray
    return tray
  }

  #toggleWindow(): void {
    const { window } = this.#options
    if (window.isShown()) window.hide()
    else window.show()
  }

  #menuActions(): TrayMenuActions {
    const { actions, window } = this.#options
    return {
      openWindow: () => window.show(),
      setStatus: (status: PresenceStatus) => this.#perform('set your status', () => actions.setStatus(status)),
      mute: (duration: MuteDuration) => this.#perform('mute notifications', () => actions.mute(duration)),
      unmute: () => this.#perform('turn notifications back on', () => actions.unmute()),
      signOut: () => this.#perform('sign out', () => actions.signOut()),
      quit: () => actions.quit()
    }
  }

  #perform(what: string, action: () => Promise<unknown>): void {
    action().catch((error: unknown) => {
      this.#options.log.warn(`the tray could not ${what}`, error)
      // A radio item checks itself when clicked: show again what core says is true.
      this.#render()
    })
  }
}
