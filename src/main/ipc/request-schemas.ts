// Every payload the renderer sends is parsed here before any handler sees it: the renderer is
// never trusted, whichever transport it came over.
import { z } from 'zod'
import { REACTION_EMOJI } from '../../shared/domain'
import type { InvokeChannel, InvokeRequest } from '../../shared/ipc'
import { MAX_ATTACHMENTS, MAX_MESSAGE_LENGTH } from '../../shared/limits'
import { IMAGE_CONTENT_TYPES, MAX_IMAGE_BYTES } from '../../shared/image-files'
import { isWebUrl } from '../../shared/web-url'
import { settingsSchema } from '../core/settings'
import { MAX_POLL_OPTIONS, MAX_POLL_TEXT } from '../../shared/poll-rules'

const empty = z.strictObject({})
const conversationId = z.string().min(1).max(64)
const messageId = z.string().regex(/^[0-9]{1,32}$/)
const clientId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/)
const pollId = z.string().regex(/^[0-9]{1,32}$/)
const pollOptionId = z.string().regex(/^[0-9]{1,3}$/)
const muteDuration = z.enum(['oneHour', 'eightHours', 'untilTomorrow', 'untilTurnedOn'])
const uploadId = clientId
/** The service refuses any URL its image upload did not answer; this only keeps out what is not a web address. */
const imageAttachment = z.strictObject({ type: z.literal('image'), url: z.string().max(2048).refine(isWebUrl) })
const pictureBytes = z.instanceof(Uint8Array).refine((bytes) => bytes.length >= 1 && bytes.length <= MAX_IMAGE_BYTES, 'A picture is 1 byte to 10 MiB.')

export const requestSchemas = {
  'app:ready': empty,
  // Shapes and sizes only: core says in the user's words what else is wrong with a poll.
  'polls:create': z.strictObject({
    conversationId,
    poll: z.strictObject({
      subject: z.string().max(MAX_POLL_TEXT * 2),
      options: z.array(z.string().max(MAX_POLL_TEXT * 2)).max(MAX_POLL_OPTIONS),
      multiple: z.boolean(),
      anonymous: z.boolean(),
      expiresAt: z.number().int().nonnegative()
    })
  }),
  'polls:get': z.strictObject({ conversationId, pollId }),
  'polls:vote': z.strictObject({ conversationId, pollId, optionIds: z.array(pollOptionId).max(MAX_POLL_OPTIONS) }),
  'polls:end': z.strictObject({ conversationId, pollId }),
  'polls:list': z.strictObject({ conversationId, next: z.string().max(512).nullable() }),
  'typing:typed': z.strictObject({ conversationId }),
  'session:get': empty,
  'session:signIn': z.strictObject({
    username: z.string().trim().min(1).max(320),
    password: z.string().min(1).max(1024)
  }),
  'session:sendCode': empty,
  'session:confirmCode': z.strictObject({ code: z.string().trim().min(1).max(64) }),
  'session:cancelVerification': empty,
  'session:signOut': empty,
  'conversations:list': empty,
  'conversations:open': z.strictObject({ conversationId }),
  'conversations:close': z.strictObject({ conversationId }),
  'messages:loadOlder': z.strictObject({ conversationId, beforeId: messageId }),
  'messages:send': z.strictObject({
    conversationId,
    text: z.string().max(MAX_MESSAGE_LENGTH),
    clientId,
    attachments: z.array(imageAttachment).max(MAX_ATTACHMENTS).optional()
  }),
  'uploads:start': z.strictObject({ uploadId, contentType: z.enum(IMAGE_CONTENT_TYPES), bytes: pictureBytes }),
  'uploads:cancel': z.strictObject({ uploadId }),
  'messages:retry': z.strictObject({ conversationId, clientId }),
  'messages:discard': z.strictObject({ conversationId, clientId }),
  'conversations:mute': z.strictObject({ conversationId, duration: muteDuration }),
  'conversations:unmute': z.strictObject({ conversationId }),
  'desktop:get': empty,
  'presence:set': z.strictObject({ status: z.enum(['active', 'away', 'dnd']) }),
  'presence:activity': empty,
  'notifications:mute': z.strictObject({ duration: muteDuration }),
  'notifications:unmute': empty,
  'settings:update': z.strictObject({ changes: settingsSchema.partial() }),
  'shell:openExternal': z.strictObject({ url: z.string().max(8192).refine(isWebUrl, 'Only http(s) links can be opened.') }),
  'messages:react': z.strictObject({ conversationId, messageId, emoji: z.enum(REACTION_EMOJI) }),
  'messages:unreact': z.strictObject({ conversationId, messageId }),
  'messages:edit': z.strictObject({ conversationId, messageId, text: z.string().max(MAX_MESSAGE_LENGTH) }),
  'messages:delete': z.strictObject({ conversationId, messageId }),
  'messages:setPinned': z.strictObject({ conversationId, messageId, pinned: z.boolean() }),
  'messages:pinned': z.strictObject({ conversationId }),
  'messages:mostLiked': z.strictObject({ conversationId })
} satisfies { [C in InvokeChannel]: z.ZodType<InvokeRequest<C>> }
