import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `pnpm dev` sends API calls: the Poruch server started by `pnpm --filter @poruch/server dev`. */
const apiTarget = process.env.PORUCH_API_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/env': { target: apiTarget, changeOrigin: true },
    },
  },
});
