import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetsPlugin } from '../plugins/widgets.js';
import { writeWidgetsBuild } from './helpers/builds.js';
import { rawGet } from './helpers/rawGet.js';

/**
 * `pnpm release` (scripts/release.mjs) on a small repository of its own, never on this one: it
 * bumps versions. The fixture has the real changesets config and the widgets' real manifest and
 * compress scripts; its builds are a few lines that stamp the package version into the files, so
 * the test also sees that the build ran after the version bump. Its workspace has no outside
 * dependency, so `pnpm install --offline` links it in a second.
 */
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const RELEASE = path.join(repo, 'scripts', 'release.mjs');

let root: string;
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });
const release = () =>
  spawnSync(process.execPath, [RELEASE, '--root', root, '--origin', 'https://example.org'], {
    encoding: 'utf8',
  });
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

const WIDGETS_BUILD = `import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
for (const [name, text] of Object.entries({
  'poruch.js': \`import('./chunks/runtime-Ab_9cdef.js'); // \${version}\\n\`,
  'chunks/runtime-Ab_9cdef.js': \`export const v = '\${version}';\${' '.repeat(600)}\\n\`,
  'map/element-Xy12abcd.js': 'customElements.define("poruch-map", class extends HTMLElement {});\\n',
})) {
  mkdirSync(\`dist/cdn/\${name}\`.replace(/[^/]+$/, ''), { recursive: true });
  writeFileSync(\`dist/cdn/\${name}\`, text);
}
`;

// No database here: run once, not again in the server-pg project.
const once = process.env.PORUCH_TEST_DB !== 'postgres';

describe.runIf(once)('pnpm release', () => {
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'poruch-release-'));
    write(
      'package.json',
      json({
        name: 'release-fixture',
        private: true,
        type: 'module',
        scripts: { build: 'pnpm --filter @poruch/core --filter @poruch/widgets run build' },
      }),
    );
    write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
    write('.gitignore', 'node_modules/\ndist/\nrelease/\n');
    for (const file of ['config.json', 'README.md']) {
      write(`.changeset/${file}`, fs.readFileSync(path.join(repo, '.changeset', file), 'utf8'));
    }
    write(
      'packages/core/package.json',
      json({
        name: '@poruch/core',
        version: '0.1.0',
        type: 'module',
        files: ['dist'],
        exports: { '.': './dist/index.js' },
        scripts: {
          build:
            "node -e \"fs.mkdirSync('dist',{recursive:true});fs.writeFileSync('dist/index.js','export {};')\"",
        },
      }),
    );
    write(
      'packages/widgets/package.json',
      json({
        name: '@poruch/widgets',
        version: '0.1.0',
        type: 'module',
        files: ['dist'],
        dependencies: { '@poruch/core': 'workspace:*' },
        scripts: {
          build:
            'rm -rf dist && node build.mjs && node scripts/manifest.mjs && node scripts/compress.mjs',
        },
      }),
    );
    write('packages/widgets/build.mjs', WIDGETS_BUILD);
    for (const file of ['manifest.mjs', 'compress.mjs']) {
      write(
        `packages/widgets/scripts/${file}`,
        fs.readFileSync(path.join(repo, 'packages', 'widgets', 'scripts', file), 'utf8'),
      );
    }
    write(
      'packages/server/package.json',
      json({ name: '@poruch/server', version: '0.1.0', private: true }),
    );
    execFileSync('pnpm', ['install', '--offline', '--silent'], { cwd: root, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'release@test');
    git('config', 'user.name', 'release test');
    git('add', '.');
    git('commit', '-q', '-m', 'fixture');
  }, 60_000);

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('refuses without a changeset, and on a tree with uncommitted changes', () => {
    const none = release();
    expect(none.status).not.toBe(0);
    expect(none.stderr).toMatch(/refused: no changeset/);

    // An uncommitted changeset is an uncommitted change.
    write(
      '.changeset/theme-and-csp.md',
      "---\n'@poruch/widgets': minor\n'@poruch/core': patch\n---\n\nA `theme` attribute on every widget.\n",
    );
    const dirty = release();
    expect(dirty.status).not.toBe(0);
    expect(dirty.stderr).toMatch(/refused: the tree has uncommitted changes/);
    expect(dirty.stderr).toContain('.changeset/theme-and-csp.md');
    // Nothing was applied.
    expect(readJson('packages/widgets/package.json').version).toBe('0.1.0');
    expect(fs.existsSync(path.join(root, 'release'))).toBe(false);
  }, 30_000);

  describe('with a committed changeset', () => {
    let run: ReturnType<typeof release>;
    let app: FastifyInstance;
    let url: string;
    const cdn = () => path.join(root, 'release', 'widgets', '0.2.0');

    beforeAll(async () => {
      git('add', '.changeset');
      git('commit', '-q', '-m', 'changeset');
      run = release();
      app = Fastify();
      await app.register(widgetsPlugin, { dir: cdn() });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    it('bumps the versions and writes each changelog as the changeset says', () => {
      expect(run.status, run.stderr).toBe(0);
      expect(readJson('packages/widgets/package.json').version).toBe('0.2.0');
      expect(readJson('packages/core/package.json').version).toBe('0.1.1');
      expect(readJson('packages/server/package.json').version).toBe('0.1.0');
      const changelog = (pkg: string) =>
        fs.readFileSync(path.join(root, 'packages', pkg, 'CHANGELOG.md'), 'utf8');
      expect(changelog('widgets')).toMatch(
        /## 0\.2\.0\s+### Minor Changes\s+- [0-9a-f]+: A `theme` attribute on every widget\./,
      );
      expect(changelog('core')).toMatch(/## 0\.1\.1\s+### Patch Changes/);
      expect(fs.existsSync(path.join(root, '.changeset', 'theme-and-csp.md'))).toBe(false);
      expect(run.stdout).toContain('@poruch/widgets: 0.1.0 → 0.2.0');
    });

    it('publishes every file of the script-tag build under its version, each SRI hash listed', () => {
      const manifest = readJson('release/widgets/0.2.0/manifest.json');
      expect(manifest.version).toBe('0.2.0');
      expect(Object.keys(manifest.files).sort()).toEqual([
        'chunks/runtime-Ab_9cdef.js',
        'map/element-Xy12abcd.js',
        'poruch.js',
      ]);
      const built = path.join(root, 'packages', 'widgets', 'dist', 'cdn');
      const list = fs.readFileSync(path.join(cdn(), 'SRI.txt'), 'utf8');
      for (const [name, { integrity }] of Object.entries<{ integrity: string }>(manifest.files)) {
        const body = fs.readFileSync(path.join(cdn(), name));
        expect(sri(body), name).toBe(integrity);
        expect(list, name).toContain(`${integrity}`);
        // The precompressed copies go along, for the server to send.
        for (const ext of ['br', 'gz']) {
          expect(fs.readFileSync(path.join(cdn(), `${name}.${ext}`))).toEqual(
            fs.readFileSync(path.join(built, `${name}.${ext}`)),
          );
        }
      }
      // Built after the bump: the files carry the new version.
      expect(fs.readFileSync(path.join(cdn(), 'poruch.js'), 'utf8')).toContain('0.2.0');
      expect(list).toContain(
        `<script type="module" src="https://example.org/widgets/0.2.0/poruch.js" integrity="${manifest.files['poruch.js'].integrity}" crossorigin="anonymous"></script>`,
      );
    });

    it('packs both tarballs with the new versions', () => {
      const packed = (file: string) =>
        JSON.parse(
          execFileSync('tar', ['-xzOf', path.join(root, 'release', file), 'package/package.json'], {
            encoding: 'utf8',
          }),
        );
      expect(packed('poruch-core-0.1.1.tgz').version).toBe('0.1.1');
      const widgets = packed('poruch-widgets-0.2.0.tgz');
      expect(widgets.version).toBe('0.2.0');
      expect(widgets.dependencies['@poruch/core']).toBe('0.1.1');
      const files = execFileSync(
        'tar',
        ['-tzf', path.join(root, 'release', 'poruch-widgets-0.2.0.tgz')],
        { encoding: 'utf8' },
      );
      expect(files).toContain('package/dist/cdn/poruch.js');
    });

    it('is served as built: the SRI of the served manifest is of the bytes served', async () => {
      const manifest = JSON.parse(
        (await rawGet(`${url}/widgets/0.2.0/manifest.json`)).body.toString(),
      );
      for (const [name, { integrity }] of Object.entries<{ integrity: string }>(manifest.files)) {
        const exact = await rawGet(`${url}/widgets/0.2.0/${name}`);
        expect(exact.status, name).toBe(200);
        expect(exact.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
        expect(sri(exact.body), name).toBe(integrity);
        const major = await rawGet(`${url}/widgets/v0/${name}`, { 'accept-encoding': 'br' });
        expect(major.headers['content-encoding'], name).toBe('br');
        expect(sri(brotliDecompressSync(major.body)), name).toBe(integrity);
      }
      expect((await rawGet(`${url}/widgets/v0/poruch.js`)).headers['cache-control']).toBe(
        'public, max-age=300, stale-while-revalidate=86400',
      );
    });

    it('refuses to publish other bytes under a version already released', () => {
      git('add', '.');
      git('commit', '-q', '-m', 'release 0.2.0');
      // A widgets change released under a server-only changeset keeps the widgets' version.
      write('.changeset/server-only.md', "---\n'@poruch/server': patch\n---\n\nA server fix.\n");
      write(
        'packages/widgets/build.mjs',
        `${WIDGETS_BUILD}writeFileSync('dist/cdn/poruch.js', '0');\n`,
      );
      git('add', '.');
      git('commit', '-q', '-m', 'widgets change');
      const again = release();
      expect(again.status, again.stdout).not.toBe(0);
      expect(again.stderr).toMatch(
        /refused: release\/widgets\/0\.2\.0 holds other bytes for 0\.2\.0/,
      );
    }, 60_000);
  });
});

describe.runIf(once)('the server keeps earlier releases (WIDGETS_RELEASES_DIR)', () => {
  let app: FastifyInstance;
  let url: string;
  let dir: string;
  const IMMUTABLE = 'public, max-age=31536000, immutable';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'poruch-releases-'));
    const build = (version: string, at: string) =>
      writeWidgetsBuild(at, {
        version,
        major: `v${version.split('.')[0]}`,
        files: { 'poruch.js': `// loader ${version}\n` },
      });
    await build('1.0.0', path.join(dir, 'build'));
    // 0.10.0 is later than 0.9.0; a pre-release never becomes a major's moving version.
    for (const version of ['0.9.0', '0.10.0', '0.11.0-next.1', '1.0.0']) {
      await build(version, path.join(dir, 'releases', version));
    }
    app = Fastify();
    await app.register(widgetsPlugin, {
      dir: path.join(dir, 'build'),
      releases: path.join(dir, 'releases'),
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves every kept version, immutable, and an older major at its newest release', async () => {
    const get = (prefix: string) => rawGet(`${url}/widgets/${prefix}/poruch.js`);
    for (const version of ['0.9.0', '0.10.0', '0.11.0-next.1', '1.0.0']) {
      const res = await get(version);
      expect(res.status, version).toBe(200);
      expect(res.body.toString(), version).toBe(`// loader ${version}\n`);
      expect(res.headers['cache-control'], version).toBe(IMMUTABLE);
    }
    const manifest = await rawGet(`${url}/widgets/0.9.0/manifest.json`);
    expect(JSON.parse(manifest.body.toString()).version).toBe('0.9.0');

    const v0 = await get('v0');
    expect(v0.body.toString()).toBe('// loader 0.10.0\n');
    expect(v0.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect((await get('v1')).body.toString()).toBe('// loader 1.0.0\n');
    expect((await get('0.8.0')).status).toBe(404);
    expect((await get('v2')).status).toBe(404);
  });
});
