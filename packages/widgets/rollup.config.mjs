// @ts-check
// Two builds of @poruch/widgets:
// - dist/esm: ES modules for React apps (react, react-dom and the other dependencies external);
// - dist/cdn: the script-tag build. `poruch.js` is the loader; each element's code is a chunk it
//   imports the first time the element appears. React is aliased to preact/compat, and
//   react-shadow's `react-dom/server` import to a stub. `scripts/manifest.mjs` then adds SRI hashes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import alias from '@rollup/plugin-alias';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';

const require = createRequire(import.meta.url);
// esbuild (reached through tsup, a root dev dependency) transpiles TypeScript and minifies CSS.
const esbuild = createRequire(require.resolve('tsup'))('esbuild');
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** `import css from 'x.css?inline'`: the file's text, as Vite does. */
const cssInline = () => ({
  name: 'css-inline',
  /** @param {string} id @param {string | undefined} importer */
  resolveId(id, importer) {
    if (!id.endsWith('.css?inline')) return null;
    const file = id.slice(0, -'?inline'.length);
    const path = file.startsWith('.')
      ? new URL(file, `file://${importer}`).pathname
      : require.resolve(file);
    return `\0css:${path}`;
  },
  /** @param {string} id */
  async load(id) {
    if (!id.startsWith('\0css:')) return null;
    const css = readFileSync(id.slice('\0css:'.length), 'utf8');
    const { code } = await esbuild.transform(css, { loader: 'css', minify: true });
    return `export default ${JSON.stringify(code.trim())};`;
  },
});

/**
 * JSON as ES modules with one named export per top-level key. Each key is a module of its own
 * (`\0json-key:<file>#<key>`) that the file re-exports, so a key used by one widget lands in that
 * widget's chunk and an unused key is dropped: core's locale files hold every namespace of the
 * site, and a page with one widget downloads only the namespaces that widget imports.
 * Except for an element's English chunk (src/shared/messages/en_GB/widgets/<name>.ts): what it
 * imports from a JSON file is a copy of its own (`en_GB.json?widget=<name>`), so that it shares no
 * module with another element's chunk and stays one file (a shared module would be a chunk of its
 * own, fetched only after the chunk that imports it: one more round trip).
 */
const json = () => ({
  name: 'json-named',
  /** @param {string} id @param {string | undefined} importer */
  async resolveId(id, importer) {
    if (id.startsWith('\0json-key:')) return id;
    const own = importer?.match(/\/src\/shared\/messages\/en_GB\/widgets\/(\w+)\.ts$/);
    if (!own || !id.endsWith('.json')) return null;
    const file = await this.resolve(id, importer, { skipSelf: true });
    return file && { id: `${file.id}?widget=${own[1]}`, moduleSideEffects: false };
  },
  /** @param {string} id */
  load(id) {
    if (/\.json\?/.test(id) && !id.startsWith('\0')) return readFileSync(id.split('?')[0], 'utf8');
    if (!id.startsWith('\0json-key:')) return null;
    const [file, key] = id.slice('\0json-key:'.length).split('#');
    const data = JSON.parse(readFileSync(/** @type {string} */ (file).split('?')[0], 'utf8'));
    return {
      code: `export const v = ${JSON.stringify(data[/** @type {string} */ (key)])};`,
      moduleSideEffects: false,
    };
  },
  /** @param {string} code @param {string} id */
  transform(code, id) {
    if (id.startsWith('\0') || !/\.json(\?|$)/.test(id)) return null;
    const keys = Object.keys(JSON.parse(code)).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k));
    const from = (/** @type {string} */ k) => JSON.stringify(`\0json-key:${id}#${k}`);
    return {
      code:
        keys.map((k, i) => `import { v as k${i} } from ${from(k)};`).join('\n') +
        '\n' +
        keys.map((k, i) => `export { k${i} as ${k} };`).join('\n') +
        `\nexport default { ${keys.map((k, i) => `${k}: k${i}`).join(', ')} };`,
      map: { mappings: '' },
      moduleSideEffects: false,
    };
  },
});

// TypeScript is transpiled with esbuild:
// @rollup/plugin-typescript only emits files of the widgets' own program, not core's sources.
// Type errors are `tsc -b`'s job.
const ts = () => ({
  name: 'esbuild-ts',
  /** @param {string} code @param {string} id */
  async transform(code, id) {
    if (!/\.tsx?$/.test(id)) return null;
    const out = await esbuild.transform(code, {
      loader: id.endsWith('.tsx') ? 'tsx' : 'ts',
      jsx: 'automatic',
      target: 'es2022',
      sourcemap: true,
      sourcefile: id,
    });
    return { code: out.code, map: out.map };
  },
});

/**
 * Minifies the widgets' own CSS, written as `/* css *\/ \`…\`` template literals: comments go,
 * whitespace collapses, and spaces around `{`, `}`, `;` and after `:` and `,` are removed. Only
 * the literal's static text changes; `${…}` expressions are left alone.
 */
const cssTemplates = () => ({
  name: 'css-templates',
  /** @param {string} code @param {string} id */
  transform(code, id) {
    if (!/\.tsx?$/.test(id) || !code.includes('/* css */')) return null;
    const out = code.replace(/\/\* css \*\/\s*`([^`]*)`/g, (_, body) => {
      const min = body
        .split(/(\$\{[^}]*\})/)
        .map((/** @type {string} */ part) =>
          part.startsWith('${')
            ? part
            : part
                .replace(/\/\*[\s\S]*?\*\//g, '')
                .replace(/\s+/g, ' ')
                .replace(/\s*([{};])\s*/g, '$1')
                .replace(/([:,])\s+/g, '$1')
                .replace(/;}/g, '}'),
        )
        .join('');
      return '`' + min.trim() + '`';
    });
    return { code: out, map: null };
  },
});

/**
 * The script-tag build's chunks. preact/compat and react-shadow, which every element needs, are
 * one `runtime` chunk. Everything else follows rollup's default: a module used by one element is
 * in that element's chunk, a module used by several is in a chunk those elements share, so no
 * page downloads another widget's code. (Our shared/ modules are not named here on purpose: a
 * manual chunk takes the whole static graph under it, and core's barrels and the locale files
 * would drag every widget's data into it.)
 * @param {string} id
 */
const manualChunks = (id) =>
  /node_modules\/(preact|react-shadow|prop-types)\/|commonjsHelpers/.test(id)
    ? 'runtime'
    : undefined;

const ELEMENT_ENTRIES = ['map', 'search', 'vacancies', 'report', 'service', 'dashboard'];
const elementInputs = Object.fromEntries(
  ELEMENT_ENTRIES.map((name) => [`${name}/element`, `src/${name}/element.ts`]).filter(
    ([, file]) => {
      try {
        readFileSync(new URL(`./${file}`, import.meta.url));
        return true;
      } catch {
        console.warn(`[poruch] ${file} does not exist yet: left out of the build`);
        return false;
      }
    },
  ),
);

/** An element of the loader's table whose entry file does not exist yet loads as a warning. */
const missingElements = () => ({
  name: 'missing-elements',
  /** @param {string} id @param {string | undefined} importer */
  resolveId(id, importer) {
    if (!importer?.endsWith('loader/elements.ts') || !id.endsWith('/element.js')) return null;
    const file = new URL(id.replace(/\.js$/, '.ts'), `file://${importer}`);
    try {
      readFileSync(file);
      return null;
    } catch {
      return `\0missing:${id}`;
    }
  },
  /** @param {string} id */
  load(id) {
    return id.startsWith('\0missing:')
      ? `console.warn(${JSON.stringify(`[poruch] ${id.slice(9)} is not in this build`)});`
      : null;
  },
});

/**
 * The loader's own copy of a module it shares with the elements (shared/styleSheets.ts): a shared
 * module would be a chunk of its own, which poruch.js would fetch and wait for before it runs.
 */
const loaderCopies = () => ({
  name: 'loader-copies',
  /** @param {string} id @param {string | undefined} importer */
  async resolveId(id, importer) {
    if (!importer?.endsWith('/src/loader/loader.ts') || !id.startsWith('../shared/')) return null;
    const file = await this.resolve(id, importer, { skipSelf: true });
    return file && `\0loader:${file.id}`;
  },
  /** @param {string} id */
  load(id) {
    return id.startsWith('\0loader:') ? readFileSync(id.slice('\0loader:'.length), 'utf8') : null;
  },
});

const external = [
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.dependencies ?? {}),
  'react-dom',
];
const isExternal = (/** @type {string} */ id) =>
  external.some((dep) => id === dep || id.startsWith(`${dep}/`)) && !id.endsWith('.css?inline');

/** Type errors are `tsc -b`'s job (and `pnpm typecheck`); the build only transpiles. */
const onwarn = (
  /** @type {import('rollup').RollupLog} */ w,
  /** @type {(w: import('rollup').RollupLog) => void} */ warn,
) => {
  if (w.plugin === 'typescript') return;
  warn(w);
};

// preact's browser ES modules: require.resolve would give the CommonJS files, and preact's own
// imports (`preact/compat/client` → `preact/compat`) resolve to the ES modules, so aliasing to
// the CommonJS ones bundles compat twice.
const preactDir = dirname(require.resolve('preact/package.json'));
const preact = (/** @type {string} */ file) => join(preactDir, file);

export default [
  {
    input: { index: 'src/index.ts', jsx: 'src/jsx.ts', ...elementInputs },
    onwarn,
    external: isExternal,
    plugins: [
      cssInline(),
      json(),
      nodeResolve({ extensions: ['.ts', '.tsx', '.js', '.mjs'] }),
      ts(),
    ],
    output: {
      dir: 'dist/esm',
      format: 'es',
      sourcemap: true,
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
  },
  {
    input: { poruch: 'src/loader/loader.ts', ...elementInputs },
    onwarn,
    plugins: [
      replace({
        preventAssignment: true,
        values: {
          'process.env.NODE_ENV': JSON.stringify('production'),
          __PORUCH_CDN__: 'true',
          __PORUCH_VERSION__: JSON.stringify(pkg.version),
        },
      }),
      alias({
        entries: [
          {
            find: /^react-dom\/server$/,
            replacement: new URL('./src/loader/reactDomServerStub.ts', import.meta.url).pathname,
          },
          { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
          {
            find: /^react\/jsx-runtime$/,
            replacement: preact('jsx-runtime/dist/jsxRuntime.module.js'),
          },
          {
            find: /^react\/jsx-dev-runtime$/,
            replacement: preact('jsx-runtime/dist/jsxRuntime.module.js'),
          },
          { find: /^react-dom$/, replacement: preact('compat/dist/compat.module.js') },
          { find: /^react$/, replacement: preact('compat/dist/compat.module.js') },
          // Leaflet's package points at its UMD build; the ES module lets rollup drop what is unused.
          { find: /^leaflet$/, replacement: require.resolve('leaflet/dist/leaflet-src.esm.js') },
        ],
      }),
      missingElements(),
      loaderCopies(),
      cssInline(),
      json(),
      nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.js', '.mjs'] }),
      commonjs(),
      cssTemplates(),
      ts(),
      terser({
        ecma: 2020,
        module: true,
        compress: { passes: 3 },
        format: { comments: false },
      }),
    ],
    output: {
      dir: 'dist/cdn',
      format: 'es',
      entryFileNames: (chunk) => (chunk.name === 'poruch' ? 'poruch.js' : '[name]-[hash].js'),
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks,
    },
  },
];
