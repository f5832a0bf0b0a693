import type Database from 'better-sqlite3-multiple-ciphers'

export interface Migration {
  /** Unique and permanent: `<area>-<nnn>-<what>`. Never rename or edit an applied migration. */
  id: string
  sql: string
}

/**
 * Applies, in list order, every migration whose id is not yet recorded. Tracking by id rather than
 * by a single `user_version` number lets area teams append migrations in parallel without
 * renumbering each other's.
 */
export function applyMigrations(db: Database.Database, list: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  const applied = new Set(
    db.prepare<[], { id: string }>('SELECT id FROM schema_migrations').all().map((row) => row.id)
  )
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)')
  const seen = new Set<string>()
  for (const migration of list) {
    if (seen.has(migration.id)) throw new Error(`duplicate migration id ${migration.id}`)
    seen.add(migration.id)
    if (applied.has(migration.id)) continue
    db.transaction(() => {
      db.exec(migration.sql)
      record.run(migration.id, Math.floor(Date.now() / 1000))
    })()
  }
}

/** Tables that hold service state (everything but the migration bookkeeping), for `/dev/reset`. */
export function stateTables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'"
    )
    .all()
    .map((row) => row.name)
}
