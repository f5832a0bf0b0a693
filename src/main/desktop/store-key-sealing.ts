// The keys of the local stores, sealed by the OS keychain as the token is: a copy of the disk
// holds the encrypted databases and keys only the signed-in user's keychain can open.
import type { KeySealing } from '../storage/local-store/store-keys'
import { keychainEncrypts, type Encryption } from './token-vault'

export function keychainSealing(encryption: Encryption): KeySealing {
  return {
    available: () => keychainEncrypts(encryption),
    seal: (key) => encryption.encryptString(key),
    unseal: (sealed) => encryption.decryptString(sealed)
  }
}
