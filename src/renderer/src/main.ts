import { mount } from 'svelte'
import App from './App.svelte'
import { AppModel } from './lib/state/app.svelte'
import './theme.css'

const target = document.getElementById('app')
if (!target) throw new Error('index.html has no #app element')

const app = new AppModel()
mount(App, { target, props: { app } })
void app.start()
