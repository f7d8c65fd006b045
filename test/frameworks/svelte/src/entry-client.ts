import { hydrate, mount } from 'svelte';
import App from './App.svelte';

const target = document.getElementById('app')!;
// Server-rendered markup is hydrated; an empty root is rendered on the client alone.
if (target.firstElementChild) hydrate(App, { target });
else mount(App, { target });
