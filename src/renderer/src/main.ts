import { mount } from 'svelte'
import App from './App.svelte'
import { refuseStrayFileDrops } from './features/attachments/file-drop'
import { installBrowserBridge } from '$lib/browser-bridge'
import { AppModel } from '$lib/state/app.svelte'
// The emoji font's faces before the theme that names it.
import './emoji-font.css'
import './theme.css'

const target = document.getElementById('app')
if (!target) throw new Error('index.html has no #app element')

// In Electron the preload has set window.api; in browser mode the bridge sets it now.
installBrowserBridge()
refuseStrayFileDrops(window)

const app = new AppModel()
mount(App, { target, props: { app } })
void app.start()
