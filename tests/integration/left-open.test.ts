// The conversation left open, against the real service and a real store on disk: the next run of
// the app says which it was (the page then opens it again), a conversation closed leaves none, and
// signing out takes it with the rest of the account's store.
import { describe, expect, it } from 'vitest'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { groupOnDisk, type GroupOnDisk } from '../support/group-on-disk'

const scope = testScope()
const { cleanups } = scope

type App = AppHarness<TokenVault, Preferences>

interface Scene extends GroupOnDisk {
  otherGroupId: string
}

async function scene(): Promise<Scene> {
  const world = await groupOnDisk(scope, 'left-open')
  const otherGroupId = String((await world.service.createGroup(world.ada, { name: 'Harbour' })).id)
  return { ...world, otherGroupId }
}

async function signedIn({ service, dataDir, ada, groupId }: Scene): Promise<App> {
  const app = launchAppOnDisk(service.origin, cleanups, dataDir)
  await signInThroughSms(app, service, ada)
  await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
  return app
}

/** The app started again on the same data directory, signed in from what it kept. */
async function nextRun({ service, dataDir }: Scene): Promise<App> {
  const app = launchAppOnDisk(service.origin, cleanups, dataDir)
  await app.core.start()
  return app
}

describe('the conversation left open', () => {
  it('is the one open when the app stopped, and none once it was closed', async () => {
    const world = await scene()
    const first = await signedIn(world)
    expect(await first.call('conversations:leftOpen', {})).toEqual({ conversationId: null })
    await first.call('conversations:open', { conversationId: world.otherGroupId })
    await first.call('conversations:close', { conversationId: world.otherGroupId })
    await first.call('conversations:open', { conversationId: world.groupId })
    // A page reloaded in the same run is told too.
    expect(await first.call('conversations:leftOpen', {})).toEqual({ conversationId: world.groupId })
    await first.core.stop()

    const second = await nextRun(world)
    expect(await second.call('conversations:leftOpen', {})).toEqual({ conversationId: world.groupId })
    await second.call('conversations:open', { conversationId: world.groupId })
    await second.call('conversations:close', { conversationId: world.groupId })
    await second.core.stop()

    const third = await nextRun(world)
    expect(await third.call('conversations:leftOpen', {})).toEqual({ conversationId: null })
  })

  it('goes with the account’s store when the person signs out', async () => {
    const world = await scene()
    const first = await signedIn(world)
    await first.call('conversations:open', { conversationId: world.groupId })
    await first.call('session:signOut', {})
    expect(await first.call('conversations:leftOpen', {})).toEqual({ conversationId: null })
    await first.core.stop()

    const second = await signedIn(world)
    expect(await second.call('conversations:leftOpen', {})).toEqual({ conversationId: null })
  })
})
