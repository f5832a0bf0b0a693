import { describe, expect, it } from 'vitest'
import { checkPassword, dummyPasswordHash, hashPassword } from '../src/domain/secrets.js'

/**
 * An unknown username must take as long to refuse as a wrong password (§18.28). Timings are not
 * asserted here; what makes them equal is: the dummy hash is made by the same function with the
 * same scrypt parameters as every real hash, and the check runs the KDF against it.
 */

/** `scrypt$N$r$p$<salt b64>$<key b64>` → its parameters and the byte lengths of salt and key. */
function shapeOf(hash: string): { scheme: string; n: string; r: string; p: string; saltBytes: number; keyBytes: number } {
  const [scheme = '', n = '', r = '', p = '', salt = '', key = ''] = hash.split('$')
  return { scheme, n, r, p, saltBytes: Buffer.from(salt, 'base64').length, keyBytes: Buffer.from(key, 'base64').length }
}

describe('the dummy password hash', () => {
  it('has exactly the KDF parameters of a real password hash', async () => {
    const real = await hashPassword('correct horse battery')
    const dummy = await dummyPasswordHash()
    expect(shapeOf(dummy)).toEqual(shapeOf(real))
    expect(shapeOf(dummy)).toMatchObject({ scheme: 'scrypt', saltBytes: 16, keyBytes: 32 })
    expect(dummy).not.toBe(real)
    expect(await dummyPasswordHash()).toBe(dummy)
  })

  it('refuses every password when there is no account, and checks real hashes as before', async () => {
    const real = await hashPassword('correct horse battery')
    expect(await checkPassword('correct horse battery', real)).toBe(true)
    expect(await checkPassword('wrong', real)).toBe(false)
    for (const password of ['', 'correct horse battery', await dummyPasswordHash()]) {
      expect(await checkPassword(password, null)).toBe(false)
    }
  })
})
