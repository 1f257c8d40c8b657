/**
 * `pnpm bench`: every bench/*.bench.ts, one after the other (they would skew each other run side
 * by side), each in its own Node process with tsx. Arguments go to every benchmark:
 *
 *   pnpm --filter @poruch/server bench [--quick] [--no-pg] [only-these-names…]
 *
 * `--quick` makes CI-sized runs (10k services); names (e.g. `search`) pick benchmarks; other
 * options (`--services 20000`) go to each.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const all = (await fs.readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort();
const names = new Set(all.map((f) => f.replace(/\.bench\.ts$/, '')));
const args = process.argv.slice(2).filter((a) => a !== '--');
const only = args.filter((a) => names.has(a));
const flags = args.filter((a) => !names.has(a));
const files = all.filter((f) => !only.length || only.includes(f.replace(/\.bench\.ts$/, '')));

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}\n`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, file), ...flags], {
      stdio: 'inherit',
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) {
    console.error(`${file} failed (exit ${code})`);
    failed++;
  }
}
process.exitCode = failed ? 1 : 0;
