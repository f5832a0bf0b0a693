// Start at login, kept by the system as a login item. Electron offers login items on macOS and
// Windows only (https://www.electronjs.org/docs/latest/api/app#appsetloginitemsettingssettings-macos-windows).
import { app } from 'electron'

/**
 * Whether this app can offer "Start at login": on macOS and Windows, once packaged. A development
 * build would register the bare Electron binary, which would open without the app at login.
 */
export function offersStartAtLogin(platform: NodeJS.Platform, packaged: boolean): boolean {
  return packaged && (platform === 'darwin' || platform === 'win32')
}

export class LoginItem {
  /** What the setting last asked for, so an unchanged setting does not ask the system again. */
  #asked: boolean | null = null

  /** Whether the system starts the app at login now (the user may have changed it there). */
  get enabled(): boolean {
    return app.getLoginItemSettings().openAtLogin
  }

  /** Makes the system start the app at login, or not, as the setting says. */
  follow(startAtLogin: boolean): void {
    if (startAtLogin === this.#asked) return
    this.#asked = startAtLogin
    if (this.enabled !== startAtLogin) app.setLoginItemSettings({ openAtLogin: startAtLogin })
  }
}
