// People: profiles, contacts, blocks, and starting a direct conversation (docs/protocol.md §4–§6, §11).
import type { Conversation } from '@shared/conversations'
import { chatId } from '@shared/conversation-id'
import type { ErrorCode, InvokeHandlers } from '@shared/window-api'
import type { Contact, Person, Profile } from '@shared/people'
import { AppError } from './app-error'
import { checkedCards } from './contact-cards'
import { parseContactLink } from './contact-link'
import type { FeatureContext } from './feature-context'

type PeopleChannel = Extract<keyof InvokeHandlers, `people:${string}` | `contacts:${string}` | `chats:${string}`>
export type PeopleHandlers = Pick<InvokeHandlers, PeopleChannel>

/** R3 takes at most this many cards a request. */
export const CARDS_PER_IMPORT_REQUEST = 1000

const NO_SUCH_PERSON = 'This person’s account does not exist any more.'

export function peopleHandlers(context: FeatureContext): PeopleHandlers {
  const { gateway, conversations, events } = context

  async function profileOf(userId: string): Promise<Profile> {
    // U3 says whether a message would be refused, not who blocks whom: B1 says whom the user blocks.
    const [profile, blocks] = await Promise.all([saying(gateway.profile(userId), { NOT_FOUND: NO_SUCH_PERSON }), gateway.blocks()])
    const blockedByMe = blocks.some((block) => block.userId === profile.id)
    // A chat with them, open or opened later, says the same.
    context.blocks.learned(profile.id, { canMessage: profile.canMessage, blockedByMe })
    context.blocks.blockedAre(blocks.map((block) => block.userId))
    return { ...profile, blockedByMe }
  }

  /** Every contact, page after page until the service answers an empty one. */
  async function allContacts(): Promise<Contact[]> {
    const contacts: Contact[] = []
    for (let after: string | null = null; ; ) {
      const page = await gateway.contactsAfter(after)
      if (page.contacts.length === 0 || page.next === null) return contacts
      contacts.push(...page.contacts)
      after = page.next
    }
  }

  /** Someone by name and avatar; someone whose account is gone is shown by their id. */
  async function personOrId(userId: string): Promise<Person> {
    try {
      return await gateway.person(userId)
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return { id: userId, name: userId, avatarUrl: null }
      throw error
    }
  }

  return {
    'people:profile': async ({ userId }) => {
      context.me()
      return profileOf(userId)
    },
    'people:block': async ({ userId }) => {
      if (userId === context.me().id) throw new AppError('VALIDATION', 'You cannot block yourself.')
      await saying(gateway.block(userId), { NOT_FOUND: NO_SUCH_PERSON })
      return profileOf(userId)
    },
    'people:unblock': async ({ userId }) => {
      context.me()
      try {
        await gateway.unblock(userId)
      } catch (error) {
        // No such block: they are unblocked already, which is what the user wants. The profile
        // below still says so if the account itself is gone.
        if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
      }
      return profileOf(userId)
    },
    'people:standing': async ({ userId }) => {
      context.me()
      return context.blocks.standingWith(userId)
    },
    'people:blocked': async () => {
      context.me()
      const blocks = await gateway.blocks()
      context.blocks.blockedAre(blocks.map((block) => block.userId))
      return Promise.all(blocks.map(async ({ userId, blockedAt }) => ({ ...(await personOrId(userId)), blockedAt })))
    },
    'people:candidates': async () => {
      const me = context.me()
      const [contacts, members] = await Promise.all([allContacts(), gateway.groupMembers()])
      const byId = new Map<string, Person>()
      for (const { id, name, avatarUrl } of [...contacts, ...members]) {
        if (id !== me.id && !byId.has(id)) byId.set(id, { id, name, avatarUrl })
      }
      return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    },
    'contacts:list': async () => {
      context.me()
      return allContacts()
    },
    'contacts:addFromLink': async ({ link }) => {
      const me = context.me()
      const parsed = parseContactLink(link)
      if (parsed === null) {
        throw new AppError('VALIDATION', 'That is not a contact link. A contact link looks like https://…/contact/<number>/<code>.')
      }
      // A contact link at a stranger's address would add, on this service, whoever it names.
      const foreign = await context.shareOrigins.problemWith(parsed, 'contact')
      if (foreign !== null) throw new AppError('VALIDATION', foreign)
      if (parsed.userId === me.id) throw new AppError('VALIDATION', 'That is your own contact link: share it with others so they can add you.')
      await saying(gateway.addContact(parsed.userId, parsed.token), {
        VALIDATION: 'This contact link is not valid: it may be mistyped, or cut short.',
        NOT_FOUND: 'Nobody has this contact link: the account does not exist any more.'
      })
      return profileOf(parsed.userId)
    },
    'contacts:import': async ({ importId, cards }) => {
      context.me()
      const checked = checkedCards(cards)
      const matched = new Map<string, Contact>()
      const batches = Math.ceil(checked.length / CARDS_PER_IMPORT_REQUEST)
      let accepted = 0
      try {
        for (let start = 0; start < checked.length; start += CARDS_PER_IMPORT_REQUEST) {
          const batch = checked.slice(start, start + CARDS_PER_IMPORT_REQUEST).map((card, offset) => ({ ...card, guid: `${importId}-${start + offset}` }))
          const batchId = await saying(gateway.importContacts(batch), {
            // R3's only refusal past the rows checked above: the service does not trust this device.
            FORBIDDEN: 'The service did not accept this device for importing contacts: its device verification failed.'
          })
          accepted += 1
          for (const contact of await gateway.importedContacts(batchId)) if (!matched.has(contact.id)) matched.set(contact.id, contact)
          events.emit('contacts:importProgress', { importId, done: start + batch.length, total: checked.length })
        }
      } catch (error) {
        // Each batch the service accepted added its contacts for good: the user must know the
        // import did not stop at nothing.
        if (accepted === 0 || !(error instanceof AppError)) throw error
        throw new AppError(
          error.code,
          `The import stopped part way: ${accepted} of its ${batches} batches of up to ${CARDS_PER_IMPORT_REQUEST} contacts went through, so some contacts may have been added. ${error.message}`,
          { cause: error }
        )
      }
      if (matched.size === 0) return { submitted: checked.length, matched: [] }
      // R4 does not say whom the user blocks, as R1 does: B1 does.
      const blocked = new Set((await gateway.blocks()).map((block) => block.userId))
      return { submitted: checked.length, matched: [...matched.values()].map((contact) => ({ ...contact, blocked: blocked.has(contact.id) })) }
    },
    'contacts:remove': async ({ userId }) => {
      context.me()
      await saying(gateway.removeContact(userId), { NOT_FOUND: 'They are not in your contacts.' })
      return null
    },
    'contacts:myLink': async () => {
      context.me()
      const url = await gateway.contactLink()
      context.shareOrigins.learn(url)
      if (url === null) throw new AppError('NOT_FOUND', 'The service has no contact link for you.')
      return { url }
    },
    'chats:start': async ({ userId }) => {
      const me = context.me()
      if (userId === me.id) throw new AppError('VALIDATION', 'You cannot start a conversation with yourself.')
      const id = chatId(me.id, userId)
      const known = conversations.get(id)
      if (known !== undefined) return known
      const person = await saying(gateway.person(userId), { NOT_FOUND: NO_SUCH_PERSON })
      // The service has no chat before its first message: until then core holds it as a draft.
      const draft: Conversation = {
        id,
        kind: 'dm',
        name: person.name,
        avatarUrl: person.avatarUrl,
        lastActivityAt: Math.floor(context.now() / 1000),
        lastMessageId: null,
        preview: null,
        unreadCount: 0,
        mute: null
      }
      return conversations.addDraft(draft)
    }
  }
}

/** The same work, its failures of the given kinds worded for what was being done. */
async function saying<T>(work: Promise<T>, words: Partial<Record<ErrorCode, string>>): Promise<T> {
  try {
    return await work
  } catch (error) {
    const message = error instanceof AppError ? words[error.code] : undefined
    if (error instanceof AppError && message !== undefined) throw new AppError(error.code, message, { cause: error })
    throw error
  }
}
