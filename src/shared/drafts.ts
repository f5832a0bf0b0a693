// What the person wrote in a conversation and has not sent: the text of its `Message` box and the
// pictures chosen for it. Kept per conversation, so moving to another, reloading or restarting the
// app loses none of it; an empty draft is no draft.
import type { ConversationId } from './conversation-id'
import type { ImageContentType } from './image-files'

/**
 * A picture chosen for the draft, as its upload left it: the composer uploads a picture as soon as
 * it is chosen, and the message sends the address the image service answered, so that address is
 * what a draft keeps (its file stays with the page that chose it, until it has uploaded).
 */
export interface DraftPicture {
  /** The page's own id for it, the same across saves of the draft. */
  id: string
  /** The file's name, shown under the picture and read as its description. */
  name: string
  contentType: ImageContentType
  /** The image service's address of the uploaded picture. */
  url: string
}

export interface Draft {
  conversationId: ConversationId
  text: string
  pictures: DraftPicture[]
  /** Unix milliseconds of the last change. */
  savedAt: number
}

/** Far more than a message may hold (the composer says so while it is too long), and still a small save. */
export const MAX_DRAFT_LENGTH = 20_000

/** Nothing written, nothing chosen: no draft to keep. */
export function isEmptyDraft(draft: Pick<Draft, 'text' | 'pictures'>): boolean {
  return draft.text.trim() === '' && draft.pictures.length === 0
}

/** The list's preview of a conversation's draft: its text on one line, else how many pictures it holds; null when it holds neither. */
export function draftPreview(text: string, pictureCount: number): string | null {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line !== '') return line
  if (pictureCount === 0) return null
  return pictureCount === 1 ? 'a picture' : `${pictureCount} pictures`
}
