// Every payload the renderer sends is parsed here before any handler sees it: the renderer is
// never trusted, whichever transport it came over.
import { z } from 'zod'
import { REACTION_EMOJI } from '@shared/messages'
import type { InvokeChannel, InvokeRequest } from '@shared/window-api'
import {
  MAX_ACCOUNT_NAME,
  MAX_ATTACHMENTS,
  MAX_BIO,
  MAX_GROUP_DESCRIPTION,
  MAX_GROUP_NAME,
  MAX_IMPORTED_CARDS,
  MAX_JOIN_ANSWER,
  MAX_JOIN_QUESTION,
  MAX_MEMBERS_PER_ADD,
  MAX_MESSAGE_LENGTH,
  MAX_NICKNAME
} from '@shared/limits'
import { IMAGE_CONTENT_TYPES, MAX_IMAGE_BYTES } from '@shared/image-files'
import { isWebUrl } from '@shared/web-url'
import { couldBeVerificationCode, SMS_CODE } from '@shared/verification-code'
import { settingsSchema } from '../core/settings'
import { MAX_POLL_OPTIONS, MAX_POLL_TEXT } from '@shared/poll-rules'
import { MAX_SERVICE_SETTING_LENGTH } from '@shared/service-settings'
import { EXPORT_FORMATS } from '@shared/conversation-files'
import { MAX_DRAFT_LENGTH } from '@shared/drafts'
import { MAX_PLACE_NAME, placeProblems } from '@shared/place'

const empty = z.strictObject({})
/** Far more than a search box is typed into; what is longer is refused, not searched. */
const MAX_SEARCH_QUERY = 1000
const conversationId = z.string().min(1).max(64)
const messageId = z.string().regex(/^[0-9]{1,32}$/)
const clientId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/)
const pollId = z.string().regex(/^[0-9]{1,32}$/)
const pollOptionId = z.string().regex(/^[0-9]{1,3}$/)
const muteDuration = z.enum(['oneHour', 'eightHours', 'untilTomorrow', 'untilTurnedOn'])
const uploadId = clientId
/** The service refuses any URL its image upload did not answer; this only keeps out what is not a web address. */
const imageAttachment = z.strictObject({ type: z.literal('image'), url: z.string().max(2048).refine(isWebUrl) })
/** A place, held to the rules the Share location dialog holds it to (shared/place.ts). */
const locationAttachment = z
  .strictObject({ type: z.literal('location'), lat: z.string().max(64), lng: z.string().max(64), name: z.string().max(MAX_PLACE_NAME) })
  .refine((place) => Object.keys(placeProblems({ name: place.name, latitude: place.lat, longitude: place.lng })).length === 0, 'Not a place on Earth.')
const pictureBytes = z.instanceof(Uint8Array).refine((bytes) => bytes.length >= 1 && bytes.length <= MAX_IMAGE_BYTES, 'A picture is 1 byte to 10 MiB.')

// Groups and people: shapes and generous sizes here; core says in the user's words what else is wrong.
const groupId = z.string().regex(/^[0-9]{1,32}$/)
const userId = z.string().regex(/^[0-9]{1,32}$/)
const membershipId = z.string().regex(/^[0-9]{1,32}$/)
const shareLink = z.string().max(2048)
const optionalImageUrl = z.string().max(2048).refine(isWebUrl).nullable()
const deletionMode = z.array(z.enum(['sender', 'admin'])).max(2)
const nickname = z.string().max(MAX_NICKNAME * 2)
const memberCandidate = z.union([
  z.strictObject({ nickname, userId }),
  z.strictObject({ nickname, phone: z.string().max(64) }),
  z.strictObject({ nickname, email: z.string().max(320) })
])
const contactCard = z.strictObject({ name: z.string().max(200), phone: z.string().max(64) })
const importId = clientId
/** Shapes only: core and the connection check say in words what is wrong with a value. */
const serviceSettings = () => {
  const value = z.string().max(MAX_SERVICE_SETTING_LENGTH)
  return z.strictObject({
    baseUrl: value,
    v2Url: value,
    v4Url: value,
    imageServiceUrl: value,
    pictureOrigins: value,
    pushUrl: value,
    pushWsUrl: value,
    appId: value,
    verifyToken: value
  })
}

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
  // A code that cannot be right never reaches V3, where it would spend one of five attempts.
  'session:confirmCode': z.strictObject({ code: z.string().trim().refine(couldBeVerificationCode) }),
  'session:cancelVerification': empty,
  'session:signOut': z.strictObject({ discardUnsent: z.boolean().optional() }),
  'conversations:list': empty,
  'conversations:open': z.strictObject({ conversationId }),
  'conversations:close': z.strictObject({ conversationId }),
  'conversations:leftOpen': empty,
  'messages:loadOlder': z.strictObject({ conversationId, beforeId: messageId }),
  'conversations:openAt': z.strictObject({ conversationId, messageId, beforeId: messageId.nullable() }),
  'conversations:pictures': z.strictObject({ conversationId, beforeId: messageId.nullable() }),
  'exports:start': z.strictObject({ exportId: clientId, conversationId, format: z.enum(EXPORT_FORMATS) }),
  'exports:cancel': z.strictObject({ exportId: clientId }),
  'messages:send': z.strictObject({
    conversationId,
    text: z.string().max(MAX_MESSAGE_LENGTH),
    clientId,
    attachments: z.array(z.union([imageAttachment, locationAttachment])).max(MAX_ATTACHMENTS).optional()
  }),
  'uploads:start': z.strictObject({ uploadId, contentType: z.enum(IMAGE_CONTENT_TYPES), bytes: pictureBytes }),
  'uploads:cancel': z.strictObject({ uploadId }),
  'drafts:list': empty,
  'drafts:keep': z.strictObject({
    conversationId,
    text: z.string().max(MAX_DRAFT_LENGTH),
    pictures: z
      .array(
        z.strictObject({
          id: clientId,
          name: z.string().max(1024),
          contentType: z.enum(IMAGE_CONTENT_TYPES),
          url: imageAttachment.shape.url
        })
      )
      .max(MAX_ATTACHMENTS)
  }),
  'messages:retry': z.strictObject({ conversationId, clientId }),
  'messages:discard': z.strictObject({ conversationId, clientId }),
  'conversations:mute': z.strictObject({ conversationId, duration: muteDuration }),
  'conversations:unmute': z.strictObject({ conversationId }),
  'desktop:get': empty,
  'presence:set': z.strictObject({ status: z.enum(['active', 'away', 'dnd']) }),
  'presence:activity': empty,
  'notifications:mute': z.strictObject({ duration: muteDuration }),
  'notifications:unmute': empty,
  'settings:update': z.strictObject({ changes: settingsSchema.omit({ keepFullHistory: true }).partial() }),
  'shell:openExternal': z.strictObject({ url: z.string().max(8192).refine(isWebUrl, 'Only http(s) links can be opened.') }),
  'messages:react': z.strictObject({ conversationId, messageId, emoji: z.enum(REACTION_EMOJI) }),
  'messages:unreact': z.strictObject({ conversationId, messageId }),
  'messages:edit': z.strictObject({ conversationId, messageId, text: z.string().max(MAX_MESSAGE_LENGTH) }),
  'messages:delete': z.strictObject({ conversationId, messageId }),
  'messages:setPinned': z.strictObject({ conversationId, messageId, pinned: z.boolean() }),
  'messages:pinned': z.strictObject({ conversationId }),
  'messages:mostLiked': z.strictObject({ conversationId }),
  'groups:create': z.strictObject({
    group: z.strictObject({
      name: z.string().max(MAX_GROUP_NAME * 2),
      description: z.string().max(MAX_GROUP_DESCRIPTION * 2),
      imageUrl: optionalImageUrl,
      share: z.boolean()
    })
  }),
  'groups:get': z.strictObject({ groupId }),
  'groups:update': z.strictObject({
    groupId,
    changes: z.strictObject({
      name: z.string().max(MAX_GROUP_NAME * 2).optional(),
      description: z.string().max(MAX_GROUP_DESCRIPTION * 2).optional(),
      imageUrl: optionalImageUrl.optional(),
      type: z.enum(['private', 'closed', 'announcement']).optional(),
      requiresApproval: z.boolean().optional(),
      joinQuestion: z.string().max(MAX_JOIN_QUESTION * 2).nullable().optional(),
      share: z.boolean().optional(),
      deletionMode: deletionMode.optional()
    })
  }),
  'groups:destroy': z.strictObject({ groupId }),
  'groups:transferOwnership': z.strictObject({ groupId, userId }),
  'groups:leave': z.strictObject({ groupId }),
  'groups:former': empty,
  'groups:rejoin': z.strictObject({ groupId }),
  'groups:checkLink': z.strictObject({ link: shareLink }),
  'groups:join': z.strictObject({ link: shareLink, answer: z.string().max(MAX_JOIN_ANSWER * 2).nullable() }),
  'groups:pendingJoins': empty,
  'groups:forgetPendingJoin': z.strictObject({ groupId }),
  'members:former': z.strictObject({ groupId }),
  'members:add': z.strictObject({ groupId, candidates: z.array(memberCandidate).max(MAX_MEMBERS_PER_ADD) }),
  'members:remove': z.strictObject({ groupId, membershipId }),
  'members:ban': z.strictObject({ groupId, membershipId }),
  'members:setRole': z.strictObject({ groupId, membershipId, role: z.enum(['admin', 'user']) }),
  'members:setNickname': z.strictObject({ groupId, nickname }),
  'members:joinRequests': z.strictObject({ groupId }),
  'members:decide': z.strictObject({ groupId, membershipId, approve: z.boolean() }),
  'people:profile': z.strictObject({ userId }),
  'people:block': z.strictObject({ userId }),
  'people:unblock': z.strictObject({ userId }),
  'people:standing': z.strictObject({ userId }),
  'people:blocked': empty,
  'people:candidates': empty,
  'contacts:list': empty,
  'contacts:addFromLink': z.strictObject({ link: shareLink }),
  'contacts:import': z.strictObject({ importId, cards: z.array(contactCard).max(MAX_IMPORTED_CARDS) }),
  'contacts:remove': z.strictObject({ userId }),
  'contacts:myLink': empty,
  'chats:start': z.strictObject({ userId }),
  'session:textInstead': empty,
  'session:cancelTextRoute': empty,
  'session:startOver': empty,
  'account:get': empty,
  'account:updateProfile': z.strictObject({
    changes: z.strictObject({
      name: z.string().max(MAX_ACCOUNT_NAME * 2).optional(),
      email: z.string().max(320).optional(),
      bio: z.string().max(MAX_BIO * 2).optional(),
      avatarUrl: optionalImageUrl.optional()
    })
  }),
  'account:changePassword': z.strictObject({ current: z.string().min(1).max(1024), next: z.string().max(1024) }),
  'security:beginTwoStep': empty,
  'security:confirmTwoStep': z.strictObject({ code: z.string().trim().regex(SMS_CODE) }),
  'security:cancelTwoStep': empty,
  'security:disableTwoStep': empty,
  'security:newBackupCode': empty,
  'security:signedInApps': empty,
  'security:signOutApp': z.strictObject({ id: z.string().regex(/^[0-9]{1,32}$/) }),
  'service:get': empty,
  'service:test': z.strictObject({ settings: serviceSettings() }),
  'service:save': z.strictObject({ settings: serviceSettings() }),
  'storage:get': empty,
  'storage:keepFullHistory': z.strictObject({ on: z.boolean() }),
  'storage:pause': empty,
  'storage:resume': empty,
  'storage:deleteLocalData': empty,
  'search:messages': z.strictObject({
    query: z.string().max(MAX_SEARCH_QUERY),
    conversationId: conversationId.optional(),
    after: z.string().regex(/^-?[0-9]{1,15}\.[0-9]{1,19}\.[0-9]{1,15}$/).optional()
  })
} satisfies { [C in InvokeChannel]: z.ZodType<InvokeRequest<C>> }
