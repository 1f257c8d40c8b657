import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    main: 'src/main.ts',
    'admin-create': 'src/cli/admin-create.ts',
    // `pnpm backup` / `pnpm restore` without tsx (a production image): node dist/backup.js
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
    // The snapshot's helper and verifier processes (db/snapshots.ts, db/snapshot-child.ts).
    'snapshot-child': 'src/db/snapshot-child.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Core is TypeScript source inside the workspace: bundle it; keep npm packages external.
  noExternal: ['@poruch/core'],
  clean: true,
  sourcemap: true,
  silent: true,
});
