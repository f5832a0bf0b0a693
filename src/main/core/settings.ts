// The user's settings for the desktop half of the app, with the defaults a new install starts
// from. Stored through the preferences port; a stored value that does not fit (an older or
// hand-edited file) falls back to its default, setting by setting, rather than losing the rest.
import { z } from 'zod'
import { DEFAULT_SETTINGS, PICTURE_CACHE_LIMITS_MB, type Settings, type SettingsChanges } from '@shared/settings'

export const settingsSchema = z.strictObject({
  desktopNotifications: z.boolean(),
  sound: z.boolean(),
  showMessageText: z.boolean(),
  autoAwayMinutes: z.union([z.literal(0), z.literal(5), z.literal(10), z.literal(30)]),
  keepRunningInTray: z.boolean(),
  startAtLogin: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  keepFullHistory: z.boolean(),
  pictureCacheLimitMb: z.union(PICTURE_CACHE_LIMITS_MB.map((mb) => z.literal(mb)))
}) satisfies z.ZodType<Settings>

/** The stored settings over the defaults, each one kept only if it is valid. */
export function readSettings(stored: unknown): Settings {
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  if (typeof stored !== 'object' || stored === null) return DEFAULT_SETTINGS
  for (const [key, schema] of Object.entries(settingsSchema.shape)) {
    const parsed = schema.safeParse((stored as Record<string, unknown>)[key])
    if (parsed.success) settings[key] = parsed.data
  }
  return settings as unknown as Settings
}

/** `changes` applied, without the keys it leaves undefined. */
export function withChanges(settings: Settings, changes: SettingsChanges): Settings {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
  return { ...settings, ...defined }
}
