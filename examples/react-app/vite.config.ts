import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In the workspace `@poruch/widgets` resolves to its TypeScript sources (what the site builds
// from). This example uses the built ES modules instead, as an app that installed the package
// from npm does: run `pnpm --filter @poruch/widgets build` first.
const widgetsEsm = fileURLToPath(
  new URL('../../packages/widgets/dist/esm/index.js', import.meta.url),
);

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [{ find: /^@poruch\/widgets$/, replacement: widgetsEsm }],
    // One React for the app and the widgets (a peer dependency).
    dedupe: ['react', 'react-dom'],
  },
  // Relative URLs, so the built app works from any folder of any origin.
  base: './',
});
