// What the system draws for the app (menus, dialogs, on some systems the title bar) follows the
// Theme setting, as the page does: Electron's nativeTheme.themeSource, which also decides what
// `prefers-color-scheme` reports to the page (https://www.electronjs.org/docs/latest/api/native-theme).
import { nativeTheme } from 'electron'
import type { ThemeChoice } from '@shared/settings'

export function followTheme(theme: ThemeChoice): void {
  if (nativeTheme.themeSource !== theme) nativeTheme.themeSource = theme
}
