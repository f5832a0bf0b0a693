// Loads the app's page again, in place: how the page comes to a Content-Security-Policy main has
// changed (a policy holds for the page it came with). In Electron, main lets the window load the
// app's own page again; in browser mode, the tab finds its bridge secret again (browser-bridge.ts).
export function reloadPage(): void {
  window.location.reload()
}
