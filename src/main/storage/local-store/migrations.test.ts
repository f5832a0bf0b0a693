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
})
