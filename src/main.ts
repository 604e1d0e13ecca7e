import { mount } from 'svelte';
import App from './App.svelte';
import './ui/styles.css';
import { registerServiceWorker } from './ui/pwa';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
mount(App, { target });
registerServiceWorker();
