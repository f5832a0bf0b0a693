import { describe, expect, it } from 'vitest'
import type { ErrorCode } from '@shared/window-api'
import { ApiError, ServiceUnreachableError } from '../api/api-error'
import { AppError } from '../core/app-error'
import { userMessageFor } from '../core/failures'
import { asAppError, speakingCore } from './service-failures'

const refusal = (status: number): ApiError => new ApiError('sendMessage', status, ['the service’s own words'], null)

describe('asAppError', () => {
  it.each<[number, ErrorCode]>([
    [400, 'VALIDATION'],
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [429, 'RATE_LIMITED']
  ])('turns a %i from the service into %s, worded for the user', (status, code) => {
    const translated = asAppError(refusal(status))
    expect(translated).toBeInstanceOf(AppError)
    expect(translated).toMatchObject({ code, message: userMessageFor(code) })
  })

  it.each([500, 502, 503, 504])('takes a %i for an outage, worth trying again', (status) => {
    expect(asAppError(refusal(status))).toMatchObject({ code: 'NETWORK', message: userMessageFor('NETWORK') })
  })

  it.each([402, 405, 410, 413, 422])('takes a %i it has no meaning for as a fault of ours', (status) => {
    expect(asAppError(refusal(status))).toMatchObject({ code: 'INTERNAL', message: userMessageFor('INTERNAL') })
  })

  it('takes a service out of reach for an outage', () => {
    expect(asAppError(new ServiceUnreachableError('listGroups'))).toMatchObject({ code: 'NETWORK', message: userMessageFor('NETWORK') })
  })

  it('keeps what the transport said as the cause, for the log', () => {
    const original = refusal(409)
    expect(asAppError(original)).toMatchObject({ cause: original })
    const outage = new ServiceUnreachableError('getMe', { cause: new Error('ECONNREFUSED') })
    expect(asAppError(outage)).toMatchObject({ cause: outage })
  })

  it('passes on anything that is not the transport’s error unchanged', () => {
    for (const error of [new TypeError('a bug'), new AppError('UNAUTHENTICATED', 'Please sign in first.'), 'a string']) {
      expect(asAppError(error)).toBe(error)
    }
  })
})

describe('speakingCore', () => {
  function transport() {
    return {
      refuse: async (status: number): Promise<never> => {
        throw refusal(status)
      },
      unreachable: async (): Promise<never> => {
        throw new ServiceUnreachableError('getMe')
      },
      echo: async (text: string, times: number): Promise<string> => text.repeat(times),
      buggy: async (): Promise<never> => {
        throw new TypeError('a bug')
      }
    }
  }

  it('translates what each method throws into an AppError', async () => {
    const service = speakingCore(transport())
    await expect(service.refuse(404)).rejects.toMatchObject({ code: 'NOT_FOUND', cause: expect.any(ApiError) })
    await expect(service.refuse(503)).rejects.toMatchObject({ code: 'NETWORK' })
    await expect(service.unreachable()).rejects.toMatchObject({ code: 'NETWORK', cause: expect.any(ServiceUnreachableError) })
  })

  it('passes arguments, answers and other errors through as they are', async () => {
    const service = speakingCore(transport())
    expect(await service.echo('ab', 3)).toBe('ababab')
    await expect(service.buggy()).rejects.toEqual(new TypeError('a bug'))
  })

  it('offers every method of the object it wraps', () => {
    expect(Object.keys(speakingCore(transport())).sort()).toEqual(['buggy', 'echo', 'refuse', 'unreachable'])
  })

  it('translates a method that throws before it returns a promise', async () => {
    const service = speakingCore({
      fetch: (() => {
        throw new ServiceUnreachableError('fetch')
      }) as () => Promise<void>
    })
    await expect(service.fetch()).rejects.toMatchObject({ code: 'NETWORK' })
  })
})
