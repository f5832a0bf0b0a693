import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * Every secret the service makes or checks goes through here: randomness from node:crypto only,
 * passwords with scrypt, tokens / backup codes / PINs stored as SHA-256 and compared in constant
 * time.
 */

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'

function randomFrom(alphabet: string, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}

/** `[A-Za-z0-9]{length}`: access tokens (40), share tokens (8). */
export const randomAlnum = (length: number): string => randomFrom(ALNUM, length)
/** `[a-z0-9]{length}`: backup codes (16). */
export const randomLowerAlnum = (length: number): string => randomFrom(LOWER_ALNUM, length)
/** Lowercase hex of `length` characters. */
export const randomHex = (length: number): string =>
  randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length)
/** Decimal digits, leading zeros allowed (SMS PINs). */
export const randomDigits = (length: number): string => randomFrom('0123456789', length)

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

/** Constant-time comparison of a candidate secret with a stored SHA-256 hex digest. */
export function matchesHash(candidate: string, storedHash: string | null): boolean {
  if (storedHash === null) return false
  const a = Buffer.from(sha256(candidate), 'hex')
  const b = Buffer.from(storedHash, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key)
    )
  })
}

/** `scrypt$N$r$p$<salt b64>$<key b64>`, so the parameters can change without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength)
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || n === undefined || r === undefined || p === undefined || salt === undefined || key === undefined) {
    return false
  }
  const expected = Buffer.from(key, 'base64')
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p), expected.length)
  return timingSafeEqual(actual, expected)
}

/**
 * A hash of a random password nobody knows, made with the same parameters as every real one, so
 * that checking a password against it costs exactly what checking a real one does.
 */
let dummyHash: Promise<string> | null = null
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomHex(32))
  return dummyHash
}

/**
 * Checks a password against a stored hash, or against the dummy hash when there is none (an
 * unknown username, §18.28): the same KDF runs either way, so how long a refusal takes does not
 * tell whether the account exists. Without a stored hash the answer is always false.
 */
export async function checkPassword(password: string, stored: string | null): Promise<boolean> {
  const matches = await verifyPassword(password, stored ?? (await dummyPasswordHash()))
  return stored !== null && matches
}

/** Constant-time comparison of two secrets given in the clear (share tokens), via their digests. */
export function constantTimeEqual(candidate: string, secret: string): boolean {
  return matchesHash(candidate, sha256(secret))
}
