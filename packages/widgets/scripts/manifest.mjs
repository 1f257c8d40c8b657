// Writes dist/cdn/manifest.json: every file of the script-tag build with its size and SRI hash
// (sha384), and the URLs it is served at: the exact version, immutable, and the moving major.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = new URL('../dist/cdn/', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const major = `v${pkg.version.split('.')[0]}`;

const walk = (d) =>
  readdirSync(d).flatMap((f) =>
    statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)],
  );

const files = {};
for (const file of walk(dir).sort()) {
  const name = relative(dir, file);
  // The precompressed copies (scripts/compress.mjs) are encodings of these files, not files.
  if (name === 'manifest.json' || /\.(br|gz)$/.test(name)) continue;
  const body = readFileSync(file);
  files[name] = {
    bytes: body.length,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  };
}
const manifest = {
  name: pkg.name,
  version: pkg.version,
  major,
  loader: 'poruch.js',
  urls: { exact: `/widgets/${pkg.version}/`, major: `/widgets/${major}/` },
  files,
};
writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(
  `[poruch] widgets ${pkg.version}: ${Object.keys(files).length} files, loader ${files['poruch.js']?.integrity}`,
);
