import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App.js';
import { ClientOnly } from './ClientOnly.js';

const root = document.getElementById('app')!;
// Server-rendered markup is hydrated; an empty root is rendered on the client alone, with JSX props only.
if (root.firstElementChild) hydrateRoot(root, <App />);
else createRoot(root).render(<ClientOnly />);
