import { describe, expect, it, vi } from 'vitest'
import { resolveServiceConfig } from '../api/service-config'
import type { Log } from '../log/log'
import { reportStartupFailure, type StartupFailureHost } from './startup-failure'

function fakes(): { host: StartupFailureHost & { order: string[] }; log: Log } {
  const order: string[] = []
  let ready = false
  return {
    host: {
      order,
      whenReady: async () => {
        ready = true
      },
      showErrorBox: (title, content) => order.push(`${ready ? 'ready' : 'early'} box: ${title} | ${content}`),
      exit: (code) => order.push(`exit ${code}`)
    },
    log: { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
  }
}

describe('reportStartupFailure', () => {
  it('shows the reason and where the settings are in a box once the app is ready, then exits 1', async () => {
    const { host, log } = fakes()
    const error = new Error('Invalid service setting "baseUrl": Invalid URL')

    await reportStartupFailure(error, '/home/ada/.config/Parley/settings.json', host, log)

    expect(host.order).toHaveLength(2)
    expect(host.order[0]).toMatch(/^ready box: Parley could not start \| Invalid service setting "baseUrl": Invalid URL\n\n/)
    expect(host.order[0]).toContain('/home/ada/.config/Parley/settings.json')
    expect(host.order[0]).toContain('PARLEY_')
    expect(host.order[1]).toBe('exit 1')
    expect(log.error).toHaveBeenCalledWith('the app could not start', error)
  })

  it('shows why resolveServiceConfig refused an address, and where to correct it', async () => {
    const { host, log } = fakes()
    let refusal: unknown = null
    try {
      resolveServiceConfig({ pushWsUrl: 'ws://push.chat.example/faye' }, {})
    } catch (error) {
      refusal = error
    }

    await reportStartupFailure(refusal, '/home/ada/.config/Parley/settings.json', host, log)

    expect(host.order).toEqual([
      'ready box: Parley could not start | ' +
        'Invalid service setting "pushWsUrl" (from the settings file): ws: to push.chat.example would send the access token unencrypted; ' +
        'use wss:, or ws: only to this computer (127.0.0.1, [::1], localhost)\n\n' +
        'The service settings are read from the "service" section of /home/ada/.config/Parley/settings.json ' +
        'and from the PARLEY_* environment variables. Correct them, then start Parley again.',
      'exit 1'
    ])
  })

  it('still exits when the box cannot be shown', async () => {
    const { host, log } = fakes()
    host.showErrorBox = () => {
      throw new Error('no display')
    }

    await reportStartupFailure('bad', 'settings.json', host, log)

    expect(host.order).toEqual(['exit 1'])
  })
})
