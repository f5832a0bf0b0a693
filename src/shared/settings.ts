// The app's own settings on this device, as Settings shows them (where the service is lives in
// service-settings.ts).

export type AutoAwayMinutes = 0 | 5 | 10 | 30
export type ThemeChoice = 'system' | 'light' | 'dark'

/** The sizes the picture cache may be held to, in MB (10^6 bytes, as the storage words count them). */
export const PICTURE_CACHE_LIMITS_MB = [100, 250, 500, 1000, 2000] as const
export type PictureCacheLimitMb = (typeof PICTURE_CACHE_LIMITS_MB)[number]

export interface Settings {
  desktopNotifications: boolean
  sound: boolean
  /** Off: notifications say who wrote, not what ("New message from Grace"). */
  showMessageText: boolean
  /** Minutes without input before the status turns Away by itself; 0 never does. */
  autoAwayMinutes: AutoAwayMinutes
  /** Closing the window leaves the app running in the tray (where there is one). */
  keepRunningInTray: boolean
  startAtLogin: boolean
  theme: ThemeChoice
  /**
   * Every conversation's older history downloads in the background and is kept on this device.
   * Changed through Settings ▸ Storage (`storage:keepFullHistory`), which starts or stops the download.
   */
  keepFullHistory: boolean,
  /** How much room pictures of kept messages may take on this device; what was used longest ago goes first. */
  pictureCacheLimitMb: PictureCacheLimitMb
}

/** What a new install starts from; main reads stored settings over these (core/settings.ts). */
export const DEFAULT_SETTINGS: Settings = {
  desktopNotifications: true,
  sound: true,
  showMessageText: true,
  autoAwayMinutes: 10,
  keepRunningInTray: true,
  startAtLogin: false,
  theme: 'system',
  keepFullHistory: true,
  pictureCacheLimitMb: 500
}

/** Some settings to change; the others stay as they are. */
export type SettingsChanges = { [K in keyof Settings]?: Settings[K] | undefined }
