// Preferences kept in a key-value store: electron-store in the desktop app, a JSON file in browser
// mode. Whatever is read back is checked, because the file is the user's and may be edited or old.
import { z } from 'zod'
import type { PreferenceValues, Preferences } from '../core/ports'
import type { Log } from '../log/log'

export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
}

const muteSchema = z.object({ until: z.number().nullable() })

/** What an unsent message carries (shared/messages.ts's SendableAttachment): pictures already uploaded, places, emoji. */
const sendableAttachmentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('image'), url: z.string() }),
  z.object({ type: z.literal('location'), lat: z.string(), lng: z.string(), name: z.string() }),
  z.object({ type: z.literal('emoji'), placeholder: z.string(), charmap: z.array(z.tuple([z.number(), z.number()])) })
])

/** How each saved value is checked on the way back in: a preference without one is a compile error. */
const preferenceSchemas: { [K in keyof PreferenceValues]: z.ZodType<PreferenceValues[K]> } = {
  deviceId: z.string().min(1).max(200),
  lastRead: z.record(z.string(), z.record(z.string(), z.string().regex(/^\d+$/))),
  windowBounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  outbox: z.array(
    z.object({
      clientId: z.string().min(1),
      conversationId: z.string().min(1),
      text: z.string(),
      // Left out, a picture written offline would come back from a restart without its picture.
      attachments: z.array(sendableAttachmentSchema).exactOptional(),
      queuedAt: z.number(),
      state: z.enum(['sending', 'failed']),
      error: z.string().nullable()
    })
  ),
  account: z.object({ id: z.string().min(1), name: z.string(), avatarUrl: z.string().nullable() }),
  presence: z.enum(['active', 'away', 'dnd']),
  globalMute: muteSchema.nullable(),
  // Read setting by setting, with defaults for the rest (settings.ts), so one bad value loses nothing else.
  settings: z.unknown(),
  chatMutes: z.record(z.string(), z.record(z.string(), muteSchema)),
  groupMuteEnds: z.record(z.string(), z.record(z.string(), z.number())),
  historyDownloadPaused: z.boolean(),
  pendingJoins: z.record(
    z.string(),
    z.array(
      z.object({
        groupId: z.string().min(1),
        link: z.string(),
        question: z.string().nullable(),
        answer: z.string().nullable(),
        requestedAt: z.number()
      })
    )
  )
}

export class StoredPreferences implements Preferences {
  readonly #store: KeyValueStore
  readonly #log: Log

  constructor(store: KeyValueStore, log: Log) {
    this.#store = store
    this.#log = log
  }

  get<K extends keyof PreferenceValues>(key: K): PreferenceValues[K] | undefined {
    const raw = this.#store.get(key)
    if (raw === undefined) return undefined
    const schema: z.ZodType<PreferenceValues[K]> = preferenceSchemas[key]
    const parsed = schema.safeParse(raw)
    if (parsed.success) return parsed.data
    this.#log.warn(`ignored a malformed saved preference "${key}"`, parsed.error.issues)
    return undefined
  }

  set<K extends keyof PreferenceValues>(key: K, value: PreferenceValues[K]): void {
    this.#store.set(key, value)
  }

  delete(key: keyof PreferenceValues): void {
    this.#store.delete(key)
  }
}
