import { render } from '@testing-library/svelte'
import { onTestFinished } from 'vitest'
import App from '../App.svelte'
import { AppModel } from '$lib/state/app.svelte'
import type { FakeApi } from './fake-api'

/** Boots the whole renderer against a fake main, the way main.ts does against the real one. */
export async function startApp(fake: FakeApi): Promise<{ app: AppModel; container: HTMLElement }> {
  fake.install()
  const app = new AppModel()
  const { container } = render(App, { props: { app } })
  // Its listeners on window (input for presence) would otherwise outlive the test and call the next test's fake.
  onTestFinished(() => app.stop())
  await app.start()
  return { app, container }
}
