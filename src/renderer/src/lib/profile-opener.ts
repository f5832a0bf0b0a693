// How any name or avatar opens that person's profile without every component between the layout
// and it passing a callback on: the layout provides the opener, names and avatars read it. Where
// nothing provides one (a component tested alone), names are plain text.
import { getContext, setContext } from 'svelte'

export type OpenProfile = (userId: string) => void

const KEY = Symbol('profile-opener')

export function provideProfileOpener(open: OpenProfile): void {
  setContext(KEY, open)
}

export function profileOpener(): OpenProfile | undefined {
  return getContext<OpenProfile | undefined>(KEY)
}
