import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * The package build (`pnpm build`): tsup writes the ES modules of the three entries; then
 * `tsc -p tsconfig.build.json` writes a declaration file beside each source's place in dist/
 * (tsup's bundled declarations turn the imported locale files into `var`s, which is not valid
 * in a .d.ts). The locale files are copied as they are: the declarations of the translations
 * import them, and so do the widgets' ES modules (`@poruch/core/locales/ua.json`).
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/lite.ts', 'src/schemas/index.ts'],
  format: 'esm',
  clean: true,
  onSuccess: async () => {
    cpSync('src/i18n/locales', 'dist/i18n/locales', { recursive: true });
  },
});
