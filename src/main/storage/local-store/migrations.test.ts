import Sqlite from 'better-sqlite3-multiple-ciphers'
import { describe, expect, it } from 'vitest'
import { latestVersion, migrate, MIGRATIONS, NewerStoreError, type Migration } from './migrations'
import { SqliteStore } from './sqlite-store'

describe('migrations', () => {
  it('bring an empty database to the latest version, and running them again changes nothing', () => {
    const db = new Sqlite(':memory:')
    migrate(db)
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()
    migrate(db)
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion())
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()).toEqual(tables)
    expect(tables).toEqual(expect.arrayContaining(['conversations', 'messages', 'runs', 'polls', 'outbox']))
  })

  it('run only those a database has not had, each with the rows the one before left', () => {
    const db = new Sqlite(':memory:')
    migrate(db, MIGRATIONS.slice(0, 1))
    db.prepare("INSERT INTO messages (conversation_id, id, sort_key, created_at, sender_id, json) VALUES ('1', '5', 5, 0, '2', '{}')").run()
    const seen: number[] = []
    const next: Migration = { name: 'counts what it found', up: (database) => seen.push(database.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number) }
    migrate(db, [...MIGRATIONS.slice(0, 1), next])
    expect(seen).toEqual([1])
    expect(db.pragma('user_version', { simple: true })).toBe(2)
  })

  it('leave a database at the version before when a migration fails half way', () => {
    const db = new Sqlite(':memory:')
    migrate(db)
    const broken: Migration = {
      name: 'fails after its first statement',
      up: (database) => {
        database.exec('CREATE TABLE half (x)')
        throw new Error('disk trouble')
      }
    }
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow('disk trouble')
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion())
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined()
  })

  it('refuse a database a newer version of the app made', () => {
    const db = new Sqlite(':memory:')
    db.pragma(`user_version = ${latestVersion() + 1}`)
    expect(() => migrate(db)).toThrow(NewerStoreError)
  })

  it('bring a database the first version made, with its rows, to groups and people, keeping every row', async () => {
    const db = new Sqlite(':memory:')
    migrate(db, MIGRATIONS.slice(0, 1))
    // Rows as version 1 wrote them.
    const message = { id: '180000000000000001', conversationId: '7', text: 'kept before', attachments: [], deleted: false, senderId: '2', createdAt: 5 }
    db.prepare('INSERT INTO messages (conversation_id, id, sort_key, created_at, sender_id, deleted, json) VALUES (?, ?, ?, ?, ?, 0, ?)').run(
      '7',
      message.id,
      BigInt(message.id),
      5,
      '2',
      JSON.stringify(message)
    )
    db.prepare('INSERT INTO runs (conversation_id, first_key, last_key, reaches_start) VALUES (?, ?, ?, 1)').run('7', BigInt(message.id), BigInt(message.id))
    db.prepare("INSERT INTO conversations (id, position, json) VALUES ('7', 0, '{\"id\":\"7\"}')").run()
    db.prepare("INSERT INTO outbox (client_id, position, json) VALUES ('c1', 0, '{\"clientId\":\"c1\"}')").run()

    migrate(db)
    const store = new SqliteStore(db, null)
    expect(await store.newest('7', 10)).toEqual({ messages: [message], older: 'none' })
    expect(await store.outbox()).toEqual([{ clientId: 'c1' }])
    expect(await store.conversations()).toEqual([{ id: '7' }])
    await store.keepPerson({ id: '2', name: 'Bea', avatarUrl: null })
    expect(await store.person('2')).toEqual({ id: '2', name: 'Bea', avatarUrl: null })
    expect(await store.group('7')).toBeNull()
  })

  it('bring a database the second version made, with its rows, to the search index, which finds every kept message by its words', async () => {
    const db = new Sqlite(':memory:')
    migrate(db, MIGRATIONS.slice(0, 2))
    // Rows as version 2 wrote them: a message, a tombstone, one with a poll (kept), one with a place.
    const base = { conversationId: '7', sourceGuid: 'g', senderId: '2', senderName: 'Bea Café', senderAvatarUrl: null, system: false, aboutUserIds: [] }
    const rows = [
      { ...base, id: '180000000000000001', text: 'Wir gehen morgen wandern 我们明天去爬山', attachments: [], createdAt: 5, deleted: false },
      { ...base, id: '180000000000000002', text: '', attachments: [], createdAt: 6, deleted: true },
      { ...base, id: '180000000000000003', text: 'Bea made a poll', attachments: [{ type: 'poll', pollId: '9' }], createdAt: 7, deleted: false },
      { ...base, id: '180000000000000004', text: 'here', attachments: [{ type: 'location', lat: '1', lng: '2', name: 'Kiosk am Hafen' }], createdAt: 8, deleted: false }
    ]
    const insert = db.prepare('INSERT INTO messages (conversation_id, id, sort_key, created_at, sender_id, deleted, json) VALUES (?, ?, ?, ?, ?, ?, ?)')
    for (const row of rows) insert.run('7', row.id, BigInt(row.id), row.createdAt, '2', row.deleted ? 1 : 0, JSON.stringify(row))
    const poll = { id: '9', conversationId: '7', subject: 'Which trail?', ownerId: '2', expiresAt: 99, ended: false, multiple: false, anonymous: false, options: [{ id: '1', title: 'Rheinsteig', votes: 0, voters: [] }], myVotes: [], canEnd: false }
    db.prepare("INSERT INTO polls (id, conversation_id, json) VALUES ('9', '7', ?)").run(JSON.stringify(poll))
    db.prepare("INSERT INTO people (id, json) VALUES ('2', '{\"id\":\"2\"}')").run()

    migrate(db)
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion())
    const store = new SqliteStore(db, null)
    const found = async (words: string[], senderNames: string[] = []): Promise<string[]> =>
      (await store.search({ words, phrases: [], senderNames, senderIds: [], conversationIds: [], has: [], since: null, until: null, after: null, limit: 10 })).hits.map((hit) => hit.messageId)
    expect(await found(['wander'])).toEqual(['180000000000000001'])
    expect(await found(['爬山'])).toEqual(['180000000000000001'])
    expect(await found(['rheinsteig'])).toEqual(['180000000000000003'])
    expect(await found(['trail'])).toEqual(['180000000000000003'])
    expect(await found(['hafen'])).toEqual(['180000000000000004'])
    expect(await found([], ['cafe'])).toEqual(['180000000000000004', '180000000000000003', '180000000000000001'])
    expect(await store.searchScope()).toEqual({ messages: 4, oldestAt: 5 })
    // Every row is still there, as it was.
    expect(await store.person('2')).toEqual({ id: '2' })
    expect(db.prepare('SELECT json FROM messages ORDER BY sort_key').pluck().all().map((json) => JSON.parse(json as string))).toEqual(rows)
  })

  it('bring a database the third version made, with its rows, to drafts, keeping every row and its search index', async () => {
    const db = new Sqlite(':memory:')
    // Rows as version 3 holds them: a message (indexed when version 3 came), the list, something unsent.
    migrate(db, MIGRATIONS.slice(0, 2))
    const message = { id: '180000000000000001', conversationId: '7', sourceGuid: 'g', senderId: '2', senderName: 'Bea', senderAvatarUrl: null, system: false, aboutUserIds: [], text: 'Kaffee am Hafen', attachments: [], createdAt: 5, deleted: false }
    db.prepare('INSERT INTO messages (conversation_id, id, sort_key, created_at, sender_id, deleted, json) VALUES (?, ?, ?, ?, ?, 0, ?)').run('7', message.id, BigInt(message.id), 5, '2', JSON.stringify(message))
    db.prepare('INSERT INTO runs (conversation_id, first_key, last_key, reaches_start) VALUES (?, ?, ?, 1)').run('7', BigInt(message.id), BigInt(message.id))
    migrate(db, MIGRATIONS.slice(0, 3))
    db.prepare("INSERT INTO conversations (id, position, json) VALUES ('7', 0, '{\"id\":\"7\"}')").run()
    db.prepare("INSERT INTO outbox (client_id, position, json) VALUES ('c1', 0, '{\"clientId\":\"c1\"}')").run()

    migrate(db)
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length)
    const store = new SqliteStore(db, null)
    expect(await store.drafts()).toEqual([])
    const draft = { conversationId: '7', text: 'half a thought', pictures: [{ id: 'p1', name: 'harbour.png', contentType: 'image/png' as const, url: 'https://i.example/p1.png' }], savedAt: 9 }
    await store.keepDraft(draft)
    expect(await store.drafts()).toEqual([draft])
    // Everything version 3 kept is still there, found as before.
    expect(await store.newest('7', 10)).toEqual({ messages: [message], older: 'none' })
    expect(await store.outbox()).toEqual([{ clientId: 'c1' }])
    expect(await store.conversations()).toEqual([{ id: '7' }])
    const hits = await store.search({ words: ['hafen'], phrases: [], senderNames: [], senderIds: [], conversationIds: [], has: [], since: null, until: null, after: null, limit: 10 })
    expect(hits.hits.map((hit) => hit.messageId)).toEqual([message.id])
  })

  it('bring a database the fourth version made, with its rows, to the conversation left open, keeping every row', async () => {
    const db = new Sqlite(':memory:')
    migrate(db, MIGRATIONS.slice(0, 4))
    const message = { id: '180000000000000001', conversationId: '7', sourceGuid: 'g', senderId: '2', senderName: 'Bea', senderAvatarUrl: null, system: false, aboutUserIds: [], text: 'Kaffee am Hafen', attachments: [], createdAt: 5, deleted: false }
    db.prepare('INSERT INTO messages (conversation_id, id, sort_key, created_at, sender_id, deleted, json) VALUES (?, ?, ?, ?, ?, 0, ?)').run('7', message.id, BigInt(message.id), 5, '2', JSON.stringify(message))
    db.prepare('INSERT INTO runs (conversation_id, first_key, last_key, reaches_start) VALUES (?, ?, ?, 1)').run('7', BigInt(message.id), BigInt(message.id))
    db.prepare("INSERT INTO conversations (id, position, json) VALUES ('7', 0, '{\"id\":\"7\"}')").run()
    const draft = { conversationId: '7', text: 'half a thought', pictures: [], savedAt: 9 }
    db.prepare('INSERT INTO drafts (conversation_id, saved_at, json) VALUES (?, ?, ?)').run('7', 9, JSON.stringify(draft))

    migrate(db)
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length)
    const store = new SqliteStore(db, null)
    expect(await store.leftOpen()).toBeNull()
    await store.keepLeftOpen('7')
    expect(await store.leftOpen()).toBe('7')
    await store.keepLeftOpen('dm:2')
    expect(await store.leftOpen()).toBe('dm:2')
    await store.keepLeftOpen(null)
    expect(await store.leftOpen()).toBeNull()
    // Everything version 4 kept is still there.
    expect(await store.newest('7', 10)).toEqual({ messages: [message], older: 'none' })
    expect(await store.conversations()).toEqual([{ id: '7' }])
    expect(await store.drafts()).toEqual([draft])
  })
})
