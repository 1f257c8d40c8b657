import { defineConfig } from 'tsup';

/**
 * The package build (`pnpm build` runs `tsup src/index.ts --format esm --dts --clean`).
 * tsup's declaration build cannot use a composite project (TS6307), so it reads a
 * non-composite tsconfig over the same sources.
 */
export default defineConfig({
  tsconfig: 'tsconfig.build.json',
});
