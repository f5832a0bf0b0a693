// How every store's database is keyed: SQLCipher's scheme (version 4's settings) under a raw
// 256-bit key, given as hex so that no key derivation runs (the key is random, not a password).
import type { Database } from 'better-sqlite3-multiple-ciphers'

/** Keys an open database as every store is keyed; the first read after it tells whether the key fits. */
export function keyed(db: Database, key: string): void {
  db.pragma(`cipher = 'sqlcipher'`)
  db.pragma('legacy = 4')
  db.pragma(`key = "x'${key}'"`)
}
