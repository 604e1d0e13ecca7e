import { mount } from 'svelte';
import App from './App.svelte';
import './ui/styles.css';
import { registerServiceWorker } from './ui/pwa';
import { ToolMemDB } from './db';
import { installContentSecurityPolicy } from './ui/csp';

// Before anything can connect: limit connections to this origin and the configured endpoints.
const settingsDb = new ToolMemDB();
await installContentSecurityPolicy(async (key) => (await settingsDb.settings.get(key))?.value).finally(() => settingsDb.close());

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
mount(App, { target });
registerServiceWorker();
