// A clipboard for a component test, on jsdom's own navigator (which has none). Not a stand-in
// navigator: Svelte reads the real one's getters on its first mount, which a copy would break.
import { onTestFinished } from 'vitest'

export function stubClipboard(writeText: (text: string) => Promise<void>): void {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } })
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, 'clipboard')
  })
}
