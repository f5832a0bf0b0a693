import { describe, expect, it } from 'vitest'
import { createDispatch } from './dispatch'
import { HANDLED, recordingHandlers, type HandlerCall } from './testing/recording-handlers'

const log = { warn: () => undefined }

/** A promise settled from outside, as a core's start is. */
function starting(): { started: Promise<void>; finish(): void; fail(error: Error): void } {
  let finish = (): void => undefined
  let fail = (_error: Error): void => undefined
  const started = new Promise<void>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  return { started, finish, fail }
}

/** Lets every queued callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('createDispatch before the core has started', () => {
  it('holds a call until the start is done, then answers it', async () => {
    const calls: HandlerCall[] = []
    const start = starting()
    const dispatch = createDispatch(recordingHandlers(calls), log, start.started)

    const answer = dispatch('session:get', {})
    await settle()
    expect(calls).toEqual([])

    start.finish()
    expect(await answer).toEqual({ ok: true, value: HANDLED })
    expect(calls.map((call) => call.channel)).toEqual(['session:get'])
  })

  it('answers once a start that failed is over: the handlers say what they can', async () => {
    const calls: HandlerCall[] = []
    const start = starting()
    const dispatch = createDispatch(recordingHandlers(calls), log, start.started)

    const answer = dispatch('session:get', {})
    start.fail(new Error('the vault could not be read'))
    expect(await answer).toEqual({ ok: true, value: HANDLED })
  })

  it('refuses a malformed call at once, without waiting', async () => {
    const calls: HandlerCall[] = []
    const dispatch = createDispatch(recordingHandlers(calls), log, starting().started)

    const answer = await dispatch('no:such-channel', {})
    expect(answer.ok).toBe(false)
    expect(calls).toEqual([])
  })
})
