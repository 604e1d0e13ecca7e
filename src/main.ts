import { mount } from 'svelte';
import App from './App.svelte';
import './ui/styles.css';
import { registerServiceWorker } from './ui/pwa';
import { ToolMemDB } from './db';
import { installContentSecurityPolicy } from './ui/csp';
import { loadPage } from './ui/pages';
import { parse } from './ui/router.svelte';
import { AppState } from './ui/app-state.svelte';
import { startApp } from './ui/recovery';

// The page shown first is fetched while the database opens (each page is its own chunk: src/ui/pages.ts).
void loadPage(parse(location.hash)).catch(() => {
  // App.svelte loads it again and shows the error.
});

// Before anything can connect: limit connections to this origin and the configured endpoints. The
// app then uses the same connection (opening a second one cost ~100 ms of every cold start).
const db = new ToolMemDB();
await installContentSecurityPolicy(async (key) => (await db.settings.get(key))?.value);

// Settles work a closed or reloaded tab left running, then loads the data: the first reads
// (interrupted work, the dataset summaries) start before the app mounts, so the first
// paint is the page with its data, in one task, rather than an empty frame filled in by the tasks
// that follow (on a phone each of those first reads is 40–60 ms of main thread). Recovery that takes
// longer (a worker rolling back an interrupted import) does not hold the paint: after 400 ms the
// app mounts anyway and the data follows.
const app = new AppState(db);
const started = startApp(app);
await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 400))]);

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
mount(App, { target, props: { app } });
registerServiceWorker();
