// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One flat config for the whole monorepo. Type-aware rules are deliberately off: they would need a
 * full TypeScript program per package and make `pnpm lint` slow; `pnpm typecheck` covers types.
 */
export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'data/**',
      '**/data/**',
      'packages/server/drizzle/**',
      'screenshots/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Browser code: the widgets, the site and the examples run in a page.
    files: ['packages/widgets/src/**', 'packages/site/src/**', 'examples/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The embedded database is opened in one place, under the DATA_DIR lock (db/embedded.ts):
    // PGlite itself is imported for its types only anywhere else in the server.
    files: ['packages/server/**/*.ts'],
    ignores: ['packages/server/src/db/embedded.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@electric-sql/pglite',
              allowTypeImports: true,
              message:
                'Open the embedded database with openDatabase or openEmbedded (db/embedded.ts): they take the DATA_DIR lock.',
            },
          ],
        },
      ],
    },
  },
  {
    // A package reaches another through its name and exports (`@poruch/server/testing`), never
    // by a relative path into its folder.
    files: ['packages/**', 'examples/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(\\.\\./)+(packages/)?(core|server|widgets|site)/(src|dist|bench|e2e|scripts)(/|$)',
              message:
                'Import another package by its name (@poruch/core, @poruch/server/testing, …), not by a path into its folder.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped JSON answers and poke at internals; `any` is allowed there only.
    files: ['**/__tests__/**', '**/e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.tsx'],
    extends: [reactHooks.configs.flat.recommended],
  },
);
