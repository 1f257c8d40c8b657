// @ts-check
// Two builds of @poruch/widgets:
// - dist/esm: ES modules for React apps (react, react-dom and the other dependencies external);
// - dist/cdn: the script-tag build. `poruch.js` is the loader; each element's code is a chunk it
//   imports the first time the element appears. React is aliased to preact/compat, and
//   react-shadow's `react-dom/server` import to a stub. `scripts/manifest.mjs` then adds SRI hashes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import alias from '@rollup/plugin-alias';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';

const require = createRequire(import.meta.url);
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
  load(id) {
    if (!id.startsWith('\0css:')) return null;
    const css = readFileSync(id.slice('\0css:'.length), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ');
    return `export default ${JSON.stringify(css)};`;
  },
});

/** JSON as ES modules with one named export per top-level key, so unused ones are dropped. */
const json = () => ({
  name: 'json-named',
  /** @param {string} code @param {string} id */
  transform(code, id) {
    if (!id.endsWith('.json')) return null;
    const data = JSON.parse(code);
    const keys = Object.keys(data).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k));
    return {
      code:
        keys.map((k) => `export const ${k} = ${JSON.stringify(data[k])};`).join('\n') +
        `\nexport default { ${keys.join(', ')} };`,
      map: { mappings: '' },
    };
  },
});

// TypeScript is transpiled with esbuild (reached through tsup, a root dev dependency):
// @rollup/plugin-typescript only emits files of the widgets' own program, not core's sources.
// Type errors are `tsc -b`'s job.
const esbuild = createRequire(require.resolve('tsup'))('esbuild');
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

const preact = (/** @type {string} */ p) => require.resolve(p);

export default [
  {
    input: { index: 'src/index.ts', ...elementInputs },
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
          { find: /^react-dom\/client$/, replacement: preact('preact/compat/client') },
          { find: /^react\/jsx-runtime$/, replacement: preact('preact/jsx-runtime') },
          { find: /^react\/jsx-dev-runtime$/, replacement: preact('preact/jsx-runtime') },
          { find: /^react-dom$/, replacement: preact('preact/compat') },
          { find: /^react$/, replacement: preact('preact/compat') },
          // Leaflet's package points at its UMD build; the ES module lets rollup drop what is unused.
          { find: /^leaflet$/, replacement: require.resolve('leaflet/dist/leaflet-src.esm.js') },
        ],
      }),
      missingElements(),
      cssInline(),
      json(),
      nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.js', '.mjs'] }),
      commonjs(),
      ts(),
      terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } }),
    ],
    output: {
      dir: 'dist/cdn',
      format: 'es',
      entryFileNames: (chunk) => (chunk.name === 'poruch' ? 'poruch.js' : '[name]-[hash].js'),
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
  },
];
