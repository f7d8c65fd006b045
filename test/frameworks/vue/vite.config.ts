import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [
    vue({
      // <bot-answer> is a custom element, not a Vue component: Vue leaves it to the browser.
      template: { compilerOptions: { isCustomElement: (tag) => tag === 'bot-answer' } },
    }),
  ],
});
