// The chosen theme, applied to the page. theme.css draws both palettes with `light-dark()`, which
// follows the root's `color-scheme`: `light dark` lets the OS choose (prefers-color-scheme, which
// Electron feeds from nativeTheme), and `data-theme` pins one.
import type { ThemeChoice } from '@shared/settings'

export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === 'system') delete root.dataset['theme']
  else root.dataset['theme'] = choice
}
