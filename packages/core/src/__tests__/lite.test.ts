import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from '../index.js';
import * as lite from '../lite.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every module lite.ts reaches through value imports and re-exports (type-only ones erased). */
function graph(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const code = readFileSync(file, 'utf8');
  const specs = [...code.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)]
    .filter((m) => !/^(?:import|export)\s*\{\s*(?:type\s+\w+\s*,?\s*)+\}/.test(m[0]))
    .map((m) => m[1]!);
  seen.set(file, specs);
  for (const s of specs) {
    if (s.startsWith('.')) graph(join(dirname(file), s.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('@poruch/core/lite', () => {
  it('reaches no zod, ky, i18next or zustand', () => {
    const packages = [...graph(join(src, 'lite.ts')).values()]
      .flat()
      .filter((s) => !s.startsWith('.'));
    expect(packages).toEqual([]);
  });

  it('exports the same values as @poruch/core', () => {
    for (const [name, value] of Object.entries(lite)) {
      expect(core[name as keyof typeof core], name).toBe(value);
    }
  });
});
