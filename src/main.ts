import { mount } from 'svelte';
import App from './App.svelte';
import './ui/styles.css';
import { registerServiceWorker } from './ui/pwa';
import { ToolMemDB } from './db';
import { installContentSecurityPolicy } from './ui/csp';

// Before anything can connect: limit connections to this origin and the configured endpoints. The
// app then uses the same connection (opening a second one cost ~100 ms of every cold start).
const db = new ToolMemDB();
await installContentSecurityPolicy(async (key) => (await db.settings.get(key))?.value);

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
mount(App, { target, props: { db } });
registerServiceWorker();
