import { createApp, createSSRApp } from 'vue';
import App from './App.vue';

const root = document.getElementById('app')!;
// Server-rendered markup is hydrated (createSSRApp); an empty root is rendered on the client alone.
(root.firstElementChild ? createSSRApp(App) : createApp(App)).mount(root);
