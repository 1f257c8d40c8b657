import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../env.js';
import { REPO_ROOT } from '../paths.js';

/** docs/operations.md keeps its table of environment variables complete. */
describe('docs/operations.md', () => {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/operations.md'), 'utf8');
  const start = doc.indexOf('\n## Environment variables');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);

  it('has an Environment variables section', () => {
    expect(start).toBeGreaterThanOrEqual(0);
  });

  it('lists every variable of env.ts in a table row, with a default and a meaning', () => {
    const rows = new Map(
      section
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .map((l) => {
          const cells = l.split('|').map((c) => c.trim());
          return [cells[1]!.replace(/`/g, ''), cells] as const;
        }),
    );
    const missing = Object.keys(envSchema.shape).filter((k) => !rows.has(k));
    expect(missing).toEqual([]);
    for (const key of Object.keys(envSchema.shape)) {
      const cells = rows.get(key)!;
      expect(cells[2], `${key} default`).not.toBe('');
      expect(cells[3], `${key} meaning`).not.toBe('');
    }
    // Nothing documented that the server does not read.
    const extra = [...rows.keys()].filter((k) => !(k in envSchema.shape));
    expect(extra).toEqual([]);
  });
});
