// Every recorded payload of a kind the client decodes must pass the matching decoder: the real
// service's shapes (numeric ids, string timestamps, nulls, extra keys) are what we must survive.
// It covers REST and push decoders alike, so it lives in push/, which may import api/ (not the
// other way round).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { RECORDED, type RecordedKind } from '../../../tests/fixtures/recorded/manifest'
import { decodePushData } from './push-events'
import {
  directMessageEnvelope,
  groupMessageEnvelope,
  groupMessagePage,
  wireChat,
  wireChatList,
  wireGroup,
  wireGroupList,
  wireMessage,
  wireSelfUser,
  wireTokenResult,
  wireVerification,
  wireAttachment
} from '../api/decoders'
import { chatToConversation, groupToConversation, selfUserToMe, toAttachment, toMessage, tokenResultToMe } from '../api/to-domain'

const folder = fileURLToPath(new URL('../../../tests/fixtures/recorded', import.meta.url))

function recordedFiles(): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((directory) => readdirSync(join(folder, directory.name)).map((name) => `${directory.name}/${name}`))
    .filter((file) => file.endsWith('.json'))
    .sort()
}

const schemas: Record<Exclude<RecordedKind, 'pushData'>, z.ZodType> = {
  message: wireMessage,
  groupMessagePage,
  groupMessageEnvelope,
  directMessageEnvelope,
  group: wireGroup,
  groupList: wireGroupList,
  chat: wireChat,
  chatList: wireChatList,
  selfUser: wireSelfUser,
  tokenResult: wireTokenResult,
  verification: wireVerification,
  attachment: wireAttachment
}

const KNOWN_PUSH_TYPES = new Set([
  'line.create',
  'direct_message.create',
  'membership.create',
  'favorite',
  'message.deleted',
  'message.update',
  'typing',
  'ping'
])

const cases = recordedFiles().flatMap((file) =>
  RECORDED.filter((entry) => entry.match.test(file)).map((entry) => ({ file, kind: entry.kind, pick: entry.pick }))
)

describe('recorded payloads', () => {
  it('are all here, and each one is checked against a decoder', () => {
    const files = recordedFiles()
    expect(files.length).toBeGreaterThan(80)
    for (const file of files) expect(cases.some((c) => c.file === file), file).toBe(true)
    for (const entry of RECORDED) expect(files.some((file) => entry.match.test(file)), String(entry.match)).toBe(true)
  })

  it.each(cases)('$kind: $file', ({ file, kind, pick }) => {
    const payloads = pick(JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>)
    expect(payloads.length).toBeGreaterThan(0)
    for (const payload of payloads) {
      if (kind === 'pushData') {
        const result = decodePushData(payload)
        expect(result.ok ? null : result.error, file).toBeNull()
        // A type the client knows must come out as itself, not as "unknown".
        const rawType = (payload as { type?: unknown }).type
        if (typeof rawType === 'string' && KNOWN_PUSH_TYPES.has(rawType) && result.ok) expect(result.event.type).toBe(rawType)
        continue
      }
      const result = schemas[kind].safeParse(payload)
      expect(result.success ? null : result.error, file).toBeNull()
    }
  })
})

describe('recorded payloads mapped to the domain', () => {
  const load = (file: string): Record<string, unknown> =>
    JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>

  it('keeps every message of a page, with its conversation and a timestamp', () => {
    const file = recordedFiles().find((f) => f.includes('MessagesIndexRequest_'))
    if (file === undefined) throw new Error('no lowerpines message page')
    const page = groupMessagePage.parse(load(file).response)
    const messages = page.messages.map((message) => toMessage(message, message.group_id ?? '?'))
    expect(messages.length).toBe(page.messages.length)
    for (const message of messages) {
      expect(message.id).toMatch(/^\d+$/)
      expect(message.conversationId).toMatch(/^\d+$/)
      expect(Number.isInteger(message.createdAt)).toBe(true)
    }
  })

  it('turns recorded groups and chats into conversations', () => {
    const groupsFile = recordedFiles().find((f) => f.includes('GroupsIndexRequest_'))
    const chatsFile = recordedFiles().find((f) => f.includes('DirectMessageChatsRequest_'))
    if (groupsFile === undefined || chatsFile === undefined) throw new Error('missing recordings')
    const me = '30038058'
    const groups = wireGroupList.parse(load(groupsFile).response).map((group) => groupToConversation(group, me))
    expect(groups.length).toBe(100)
    expect(groups.every((group) => group.kind === 'group' && group.lastActivityAt > 0)).toBe(true)

    const chats = wireChatList.parse(load(chatsFile).response).map((chat) => chatToConversation(chat, me))
    for (const chat of chats) {
      const [lo, hi] = chat.id.split('+')
      expect(chat.kind).toBe('dm')
      expect([lo, hi]).toContain(me)
      expect(BigInt(lo ?? '0') < BigInt(hi ?? '0')).toBe(true)
    }
  })

  it('reads the signed-in user from U1 and from a token result', () => {
    const userFile = recordedFiles().find((f) => f.includes('UserMeRequest_'))
    const tokenFile = recordedFiles().find((f) => f.startsWith('gmwindows-observed/gmw_04_'))
    if (userFile === undefined || tokenFile === undefined) throw new Error('missing recordings')
    expect(selfUserToMe(wireSelfUser.parse(load(userFile).response)).id).toBe('30038058')
    const token = wireTokenResult.parse((load(tokenFile).data as { response: unknown }).response)
    expect(tokenResultToMe(token)).toEqual({ id: '20000001', name: 'Example User', avatarUrl: null })
  })

  it('maps the attachment kinds the app shows and drops the others', () => {
    const kinds = recordedFiles()
      .filter((f) => f.startsWith('communitydocs-rest/cd_attachments_'))
      .map((f) => {
        const wire = load(f).data as { type: string }
        return [wire.type, toAttachment(wire)?.type ?? null] as const
      })
    expect(Object.fromEntries(kinds)).toEqual({
      image: 'image',
      video: null,
      file: null,
      location: 'location',
      emoji: 'emoji',
      reply: null,
      mentions: null,
      poll: 'poll',
      partial_image: null
    })
  })
})
