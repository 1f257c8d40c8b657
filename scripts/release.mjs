#!/usr/bin/env node
// `pnpm release [--root <dir>] [--origin <url>]`: makes a release of the repository at --root
// (default: this one), as docs/releasing.md describes. It refuses a tree with uncommitted changes
// and a tree without a pending changeset. Then it
// 1. applies the changesets (`changeset version`): new versions and a CHANGELOG.md entry per package;
// 2. builds (`pnpm build`: core, the widgets, the site, the server);
// 3. publishes the widgets' script-tag build into release/widgets/<version>/, checks every SRI hash
//    of its manifest.json against the bytes written and lists them with ready <script> tags (SRI.txt);
// 4. packs @poruch/core and @poruch/widgets into release/ (`pnpm pack`).
// It commits nothing: the new versions, changelogs and consumed changesets are left to review and
// commit. The changesets CLI is the one installed beside this script.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    origin: { type: 'string', default: 'https://poruch.org' },
  },
});
const root = resolve(args.root);
const origin = args.origin.replace(/\/+$/, '');
const PUBLISHED = { '@poruch/core': 'packages/core', '@poruch/widgets': 'packages/widgets' };

const say = (line) => console.log(`[release] ${line}`);
function refuse(reason) {
  console.error(`[release] refused: ${reason}`);
  process.exit(1);
}
const run = (cmd, argv, cwd = root) =>
  execFileSync(cmd, argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const walk = (dir) =>
  readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)],
  );

/** name → version of every workspace package under packages/. */
function versions() {
  const dir = join(root, 'packages');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((d) => existsSync(join(dir, d, 'package.json')))
      .map((d) => readJson(join(dir, d, 'package.json')))
      .map((pkg) => [pkg.name, pkg.version]),
  );
}

// ---- refusals: before anything changes ----------------------------------------------------------
let dirty;
try {
  dirty = run('git', ['status', '--porcelain']).split('\n').filter(Boolean);
} catch {
  refuse(`${root} is not a git work tree`);
}
if (dirty.length) {
  refuse(
    `the tree has uncommitted changes; commit or remove them first:\n${dirty.slice(0, 20).join('\n')}`,
  );
}
const changesets = existsSync(join(root, '.changeset'))
  ? readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md')
  : [];
if (!changesets.length) {
  refuse('no changeset in .changeset/: run `pnpm changeset` to describe what changed first');
}

// ---- 1. versions and changelogs ------------------------------------------------------------------
const before = versions();
const changesetCli = join(
  dirname(createRequire(import.meta.url).resolve('@changesets/cli/package.json')),
  'bin.js',
);
say(`applying ${changesets.length} changeset(s): ${changesets.join(', ')}`);
run(process.execPath, [changesetCli, 'version']);
const after = versions();
for (const [name, version] of Object.entries(after)) {
  if (before[name] !== version) say(`${name}: ${before[name]} → ${version}, CHANGELOG.md updated`);
}

// ---- 2. build ------------------------------------------------------------------------------------
say('building: `pnpm build` (core, then the widgets, the site and the server)');
try {
  execFileSync('pnpm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
} catch {
  refuse(
    'the build failed (above); the versions applied are left in the tree, revert them with git',
  );
}

// ---- 3. the versioned CDN folder -----------------------------------------------------------------
const version = after['@poruch/widgets'];
const build = join(root, PUBLISHED['@poruch/widgets'], 'dist', 'cdn');
const manifest = readJson(join(build, 'manifest.json'));
if (manifest.version !== version) {
  refuse(`dist/cdn/manifest.json says ${manifest.version}, the package ${version}: a stale build`);
}
const cdn = join(root, 'release', 'widgets', version);
const rel = (file) => relative(root, file);
if (existsSync(cdn)) {
  // A published version is immutable: the same version must be the same bytes.
  const published = readJson(join(cdn, 'manifest.json')).files;
  if (JSON.stringify(published) !== JSON.stringify(manifest.files)) {
    refuse(
      `${rel(cdn)} holds other bytes for ${version}: the widgets changed without a version bump ` +
        '(add a changeset for @poruch/widgets; revert the versions applied with git)',
    );
  }
  say(`${rel(cdn)}: already published with these bytes, kept`);
} else {
  cpSync(build, cdn, { recursive: true });
}
// Every file the browser can be sent is listed, and each listed hash is of the bytes written.
const listed = new Set(Object.keys(manifest.files));
for (const file of walk(cdn)) {
  const name = relative(cdn, file);
  if (name === 'manifest.json' || name === 'SRI.txt' || /\.(br|gz)$/.test(name)) continue;
  if (!listed.has(name)) refuse(`${rel(file)} is not in manifest.json`);
}
for (const [name, { bytes, integrity }] of Object.entries(manifest.files)) {
  const body = readFileSync(join(cdn, name));
  if (body.length !== bytes || sri(body) !== integrity) {
    rmSync(cdn, { recursive: true, force: true });
    refuse(`${name}: the bytes written do not match manifest.json's SRI hash`);
  }
}
const url = (name) => `${origin}/widgets/${version}/${name}`;
writeFileSync(
  join(cdn, 'SRI.txt'),
  [
    `@poruch/widgets ${version}: the script-tag build for ${origin}/widgets/${version}/ (immutable)`,
    `and ${origin}/widgets/${manifest.major}/ (the moving major).`,
    '',
    'Pin this exact version (the browser refuses a loader whose bytes differ):',
    '',
    `<script type="module" src="${url(manifest.loader)}" integrity="${manifest.files[manifest.loader].integrity}" crossorigin="anonymous"></script>`,
    '',
    'Every file with its size and SRI hash (also in manifest.json):',
    '',
    ...Object.entries(manifest.files).map(
      ([name, f]) => `${f.integrity}  ${String(f.bytes).padStart(7)} B  ${name}`,
    ),
    '',
  ].join('\n'),
);
say(`${rel(cdn)}/: ${listed.size} files, each SRI hash checked; SRI.txt lists them`);
say(`  loader ${url(manifest.loader)} ${manifest.files[manifest.loader].integrity}`);

// ---- 4. tarballs ---------------------------------------------------------------------------------
const out = join(root, 'release');
for (const [name, dir] of Object.entries(PUBLISHED)) {
  const printed = run('pnpm', ['pack', '--pack-destination', out], join(root, dir));
  const tarball = printed
    .split('\n')
    .map((l) => l.trim())
    .reverse()
    .find((l) => l.endsWith('.tgz'));
  const file = tarball && resolve(join(root, dir), tarball);
  if (!file || !existsSync(file)) refuse(`pnpm pack of ${name} wrote no tarball:\n${printed}`);
  const packed = JSON.parse(run('tar', ['-xzOf', file, 'package/package.json']));
  if (packed.version !== after[name]) {
    refuse(`${rel(file)} holds version ${packed.version}, not ${after[name]}`);
  }
  say(`${rel(file)}: ${name}@${packed.version}, ${statSync(file).size} bytes`);
}

say('done. Review and commit the new versions, changelogs and consumed changesets:');
for (const line of run('git', ['status', '--short']).split('\n').filter(Boolean)) {
  say(`  ${line}`);
}
say(`then deploy ${rel(cdn)}/ and publish the tarballs (docs/releasing.md).`);
