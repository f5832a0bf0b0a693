import { describe, expect, it } from 'vitest'
import type { Account, ProfileChanges } from '@shared/account'
import type { Me } from '@shared/session'
import { AppError } from './app-error'
import type { ProfileUpdateOutcome } from './ports'
import { Profile } from './profile'

const account: Account = { id: '7', name: 'Ada', email: 'ada@example.test', bio: '', avatarUrl: null, twoStep: { enabled: false, phoneHint: null } }

/** A profile over a service that answers U2 and P1 as told, recording what it was asked. */
function profileAnswering(update: ProfileUpdateOutcome, password: () => Promise<void> = async () => undefined) {
  const asked: ProfileChanges[] = []
  const renamed: Me[] = []
  const ended: string[] = []
  const profile = new Profile({
    service: {
      account: async () => account,
      updateProfile: async (changes) => {
        asked.push(changes)
        return update
      },
      changePassword: password
    },
    meChanged: (me) => renamed.push(me),
    sessionEnded: async (notice) => {
      ended.push(notice)
    }
  })
  return { profile, asked, renamed, ended }
}

describe('Profile', () => {
  it('says the service refused the profile when its answer names no field, and renames nobody', async () => {
    const { profile, renamed } = profileAnswering({ kind: 'refused', field: null })

    await expect(profile.update({ bio: 'hello' })).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/did not accept your profile/) })
    expect(renamed).toEqual([])
  })

  it('sends the name and e-mail trimmed, and the bio as written', async () => {
    const { profile, asked } = profileAnswering({ kind: 'saved', account })

    await profile.update({ name: ' Ada ', email: ' ada@example.test ', bio: ' spaced ' })

    expect(asked).toEqual([{ name: 'Ada', email: 'ada@example.test', bio: ' spaced ' }])
  })

  it('passes on a failure other than a wrong current password, and the session goes on', async () => {
    const { profile, ended } = profileAnswering({ kind: 'saved', account }, () => Promise.reject(new AppError('NETWORK', 'Cannot reach the service.')))

    await expect(profile.changePassword('old password', 'new password')).rejects.toMatchObject({ code: 'NETWORK' })
    expect(ended).toEqual([])
  })
})
