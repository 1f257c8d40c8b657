import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * The package build (`pnpm build`): ES modules and declarations of the three entries, and the
 * locale files as they are (`@poruch/core/locales/ua.json`), which the widgets' ES modules import.
 * tsup's declaration build cannot use a composite project (TS6307), so it reads a
 * non-composite tsconfig over the same sources.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/lite.ts', 'src/schemas/index.ts'],
  format: 'esm',
  dts: true,
  clean: true,
  tsconfig: 'tsconfig.build.json',
  onSuccess: async () => {
    cpSync('src/i18n/locales', 'dist/locales', { recursive: true });
  },
});
