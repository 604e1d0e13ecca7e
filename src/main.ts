import { mount } from 'svelte';
import App from './App.svelte';
import './ui/styles.css';
import { registerServiceWorker } from './ui/pwa';
import { ToolMemDB } from './db';
import { installContentSecurityPolicy } from './ui/csp';
import { loadPage } from './ui/pages';
import { parse } from './ui/router.svelte';

// The page shown first is fetched while the database opens (each page is its own chunk: src/ui/pages.ts).
void loadPage(parse(location.hash)).catch(() => {
  // App.svelte loads it again and shows the error.
});

// Before anything can connect: limit connections to this origin and the configured endpoints. The
// app then uses the same connection (opening a second one cost ~100 ms of every cold start).
const db = new ToolMemDB();
await installContentSecurityPolicy(async (key) => (await db.settings.get(key))?.value);

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
mount(App, { target, props: { db } });
registerServiceWorker();
