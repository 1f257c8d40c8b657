// The size check (CI): gzip bytes of the JS and CSS a page downloads for one widget, following
// the loader's table and every static import of the element's chunk. Fails above the budgets.
// CSS ships inside the JS (shadow-root styles), so the JS total is the JS+CSS total.
// Each figure is shown beside the baseline's (size-baseline.json: the figures of the last
// release or baseline, with the revision they were measured at) and the difference. After a
// release, or a change whose growth is accepted, update it: `pnpm size --save-baseline`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = new URL('../dist/cdn/', import.meta.url).pathname;
const gz = (file) => gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;

/** Static imports of a built chunk (what the browser fetches before running it). */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(dir, file), 'utf8');
  for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g)) {
    closure(normalize(join(dirname(file), m[1])), seen);
  }
  return seen;
}

/** The chunk the loader imports for `tag`. */
function elementChunk(tag) {
  const loader = readFileSync(join(dir, 'poruch.js'), 'utf8');
  const m = loader.match(new RegExp(`"${tag}":\\[\\(\\)=>import\\("([^"]+)"\\)`));
  if (!m) throw new Error(`[poruch] size: no chunk for <${tag}> in poruch.js`);
  return normalize(m[1]);
}

const page = (tag) => {
  const files = closure(elementChunk(tag), new Set(['poruch.js']));
  return { files: [...files], bytes: [...files].reduce((n, f) => n + gz(f), 0) };
};

const KB = 1024;
const checks = [
  { id: 'loader', name: 'loader (poruch.js)', bytes: gz('poruch.js'), budget: 3 * KB },
  {
    id: 'map',
    name: 'page with only <poruch-map> (Leaflet included)',
    ...page('poruch-map'),
    budget: 85 * KB,
  },
  {
    id: 'vacancies',
    name: 'page with only <poruch-vacancies>',
    ...page('poruch-vacancies'),
    budget: 40 * KB,
  },
  {
    id: 'search',
    name: 'page with only <poruch-search>',
    ...page('poruch-search'),
    budget: 40 * KB,
  },
];

const baselineFile = new URL('../size-baseline.json', import.meta.url);
if (process.argv.includes('--save-baseline')) {
  let revision = null;
  try {
    revision = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout: the figures alone.
  }
  const bytes = Object.fromEntries(checks.map((c) => [c.id, c.bytes]));
  const saved = { revision, date: new Date().toISOString().slice(0, 10), bytes };
  writeFileSync(baselineFile, `${JSON.stringify(saved, null, 2)}\n`);
  console.log(`[poruch] size: baseline saved (${revision ?? 'no revision'})`);
}
/** @type {{ revision: string | null, date: string, bytes: Record<string, number> }} */
const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const delta = (bytes) => `${bytes < 0 ? '−' : '+'}${(Math.abs(bytes) / KB).toFixed(1)} KB`;

console.log(`Baseline: ${baseline.revision ?? '?'} of ${baseline.date} (size-baseline.json)`);
let failed = false;
for (const c of checks) {
  const ok = c.bytes <= c.budget;
  failed ||= !ok;
  const before = baseline.bytes[c.id];
  const change =
    before === undefined ? 'no baseline' : `before ${kb(before)}, ${delta(c.bytes - before)}`;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${c.name}: ${kb(c.bytes)} gzip (${change}; budget ${c.budget / KB} KB)` +
      (c.files
        ? `\n       ${c.files.map((f) => `${f} ${(gz(f) / KB).toFixed(1)}`).join(', ')}`
        : ''),
  );
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(checks.map((c) => ({ ...c, before: baseline.bytes[c.id] ?? null }))));
}
process.exit(failed ? 1 : 0);
