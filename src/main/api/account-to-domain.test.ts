import { describe, expect, it } from 'vitest'
import { wireSelfUser } from './decoders'
import { selfUserToAccount } from './account-to-domain'

const selfUser = {
  id: '7',
  user_id: '7',
  name: 'Ada',
  email: 'ada@example.test',
  phone_number: '+1 5550100042',
  image_url: null,
  bio: 'Engines.',
  share_url: null,
  mfa: { enabled: false, channels: [] }
}

describe('selfUserToAccount', () => {
  it('reads the profile, and no phone hint before a phone was confirmed for two-step verification', () => {
    expect(selfUserToAccount(wireSelfUser.parse(selfUser))).toEqual({
      id: '7',
      name: 'Ada',
      email: 'ada@example.test',
      bio: 'Engines.',
      avatarUrl: null,
      twoStep: { enabled: false, phoneHint: null }
    })
  })

  it('hints at the phone by its last two digits once it is the two-step channel', () => {
    const wire = wireSelfUser.parse({ ...selfUser, mfa: { enabled: true, channels: [{ type: 'phone_number', created_at: '2026-01-01T00:00:00Z' }] } })
    expect(selfUserToAccount(wire).twoStep).toEqual({ enabled: true, phoneHint: '42' })
  })

  it('reads a missing or odd bio and mfa as empty and off rather than failing', () => {
    const wire = wireSelfUser.parse({ ...selfUser, bio: 12, mfa: 'on' })
    expect(selfUserToAccount(wire)).toMatchObject({ bio: '', twoStep: { enabled: false, phoneHint: null } })
  })
})
