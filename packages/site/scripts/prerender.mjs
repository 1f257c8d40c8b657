// The last build step (`pnpm --filter @poruch/site run build`): writes the first screen of every
// route as static HTML, so a phone paints the page before the JavaScript has arrived.
//
// For each route of src/routes.tsx and each interface language it writes dist/pages/<name>.html
// (ua) and dist/pages/<name>.en_GB.html: dist/index.html with
// - the route's first screen inside #root (src/prerender.tsx, rendered here in Node);
// - `<html lang>` and `data-locale` (the language the app starts in), the title, the meta
//   description, the links to the Atom feeds and the <noscript> text in that language;
// - the main stylesheet inlined (one request less before the first paint; 3 KB compressed);
// - <link rel="modulepreload"> for the route's own chunks (from dist/.vite/manifest.json), so
//   they download beside the entry chunk instead of after it.
// dist/pages/index.<locale>.html: the page of a path no route knows, its head in that language;
// dist/pages/profile-shadow.css and profile-page.css: the profile widget's shadow-root CSS and
// the profile screen's own stylesheet, with which the server draws an approved service's first
// screen into the profile page (server plugins/site.ts);
// and dist/pages/routes.json: the route patterns in order, with their files, for the server
// (packages/server/src/plugins/site.ts) to pick the page of a path. dist/index.html itself is
// left as Vite wrote it: the service worker's offline shell and the page of unknown paths.
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const site = path.resolve(here, '..');
const dist = path.join(site, 'dist');

// What the app's modules read while rendering: an empty browser (no storage, no iOS, no
// standalone display). Nothing else of the DOM is used by a render without effects.
globalThis.window ??= {
  location: new URL('http://localhost/'),
  matchMedia: () => ({ matches: false }),
  addEventListener() {},
  removeEventListener() {},
};
if (typeof globalThis.navigator === 'undefined') {
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: '', platform: '', maxTouchPoints: 0 },
    configurable: true,
  });
}

const ssrDir = path.join(site, 'node_modules/.prerender');
const ssrEntry = readdirSync(ssrDir).find((f) => /^prerender\.m?js$/.test(f));
if (!ssrEntry) throw new Error(`[poruch] prerender: no SSR build in ${ssrDir}`);
const { ROUTES, LOCALE_CODES, renderRoute, pageHead, SERVICE_SHADOW_CSS } = await import(
  pathToFileURL(path.join(ssrDir, ssrEntry)).href
);

/** @type {Record<string, { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[] }>} */
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const template = readFileSync(path.join(dist, 'index.html'), 'utf8');

// Which module each route's screen loads: `const Home = lazyScreen(() => import('./pages/home/index.js'))`
// and `screen: Home` in src/routes.tsx.
const routesSource = readFileSync(path.join(site, 'src/routes.tsx'), 'utf8');
const modules = new Map(
  [...routesSource.matchAll(/const (\w+) = lazyScreen\(\(\) => import\('\.\/(.+?)\.js'\)\)/g)].map(
    (m) => [m[1], `src/${m[2]}.tsx`],
  ),
);
const screenOf = new Map(
  [...routesSource.matchAll(/name: '([^']+)',[^}]*?screen: (\w+)/g)].map((m) => [m[1], m[2]]),
);

/** A chunk and everything it imports statically (manifest keys). */
function closure(key, seen = new Set()) {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(dep, seen);
  return seen;
}
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('[poruch] prerender: no entry chunk in the manifest');
const entryChunks = closure(entryKey);

// The main stylesheet, inlined (the CSP allows inline styles; it has no relative url()).
const cssLink = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/;
const cssMatch = template.match(cssLink);
if (!cssMatch) throw new Error('[poruch] prerender: no stylesheet link in dist/index.html');
const mainCss = readFileSync(path.join(dist, cssMatch[1]), 'utf8');
// The prerendered root is laid out as the app's root (`.app { … }` of src/styles.css).
const appRule = mainCss.match(/(?:^|\})\.app\{([^}]*)\}/);
if (!appRule) throw new Error('[poruch] prerender: no .app rule in the main stylesheet');
const css = `${mainCss}.app-prerendered{${appRule[1]}}`.replace(/<\/style/gi, '<\\/style');

/**
 * The chunk of a language's translations, when the entry does not hold it already: the app imports
 * it before its first render, so a page in that language preloads it beside the entry instead of
 * asking for it once the entry has run (the profile's widget reads it too).
 */
function localeScripts(locale, own) {
  const key = Object.keys(manifest).find((k) => k.endsWith(`/i18n/locales/${locale}.json`));
  if (!key || entryChunks.has(key) || own.includes(key)) return [];
  return [`/${manifest[key].file}`];
}

/** Escapes text for an element's content or a quoted attribute value. */
const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/** dist/index.html's head (and <noscript>) in one language (src/prerender.tsx's pageHead). */
function localiseHead(html, head, locale) {
  const out = html
    .replace(/<html lang="[^"]*">/, () => `<html lang="${head.lang}" data-locale="${locale}">`)
    // The title, then the feeds (the app's applyFeedLinks keeps them in its language).
    .replace(
      /<title>[^<]*<\/title>/,
      () =>
        `<title>${escapeHtml(head.title)}</title>` +
        head.feeds
          .map(
            (f) =>
              `\n    <link rel="alternate" type="application/atom+xml" title="${escapeHtml(f.title)}" href="${escapeHtml(f.href)}">`,
          )
          .join(''),
    )
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(head.description)}" />`,
    )
    .replace(
      /<noscript([^>]*)>[^<]*<\/noscript>/,
      (_, attributes) => `<noscript${attributes}>${escapeHtml(head.noscript)}</noscript>`,
    );
  for (const part of ['data-locale=', '<title>', 'name="description" content="', '<noscript']) {
    if (!out.includes(part)) throw new Error(`[poruch] prerender: no ${part} in dist/index.html`);
  }
  return out;
}

const outDir = path.join(dist, 'pages');
mkdirSync(outDir, { recursive: true });
const table = [];
for (const route of ROUTES) {
  const module = modules.get(screenOf.get(route.name));
  if (!module || !manifest[module]) {
    throw new Error(`[poruch] prerender: no chunk for route ${route.name} (${module ?? '?'})`);
  }
  const own = [...closure(module)].filter((k) => !entryChunks.has(k));
  const scripts = own.map((k) => `/${manifest[k].file}`);
  const styles = [...new Set(own.flatMap((k) => manifest[k].css ?? []))].map((f) => `/${f}`);
  const hints = (locale) =>
    [
      ...[...scripts, ...localeScripts(locale, own)].map(
        (href) => `<link rel="modulepreload" crossorigin href="${href}">`,
      ),
      ...styles.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
    ].join('\n    ');
  if (route.name === 'profile') {
    const own = styles.map((href) => readFileSync(path.join(dist, href), 'utf8')).join('');
    writeFileSync(path.join(outDir, 'profile-page.css'), own.replace(/<\/style/gi, '<\\/style'));
  }
  const files = {};
  for (const locale of LOCALE_CODES) {
    // `inert` until React replaces it: a tap or a keystroke on the picture of a control would be
    // lost. The root's class (`.app-prerendered`, styled as `.app`) and the test hooks are renamed
    // so that browser tests waiting for `.app` or `[data-screen]` wait for the live page.
    const page = (await renderRoute(route.name, locale))
      .replace('<div class="app"', '<div inert="" class="app-prerendered"')
      .replace(/ data-(route|screen|testid)="/g, ' data-prerendered-$1="');
    const head = pageHead(route.name, locale);
    const html = localiseHead(template, head, locale)
      // Function replacers: a `$` in the CSS or the page is not a replacement pattern.
      .replace(cssLink, () => `<style>${css}</style>`)
      .replace('</head>', () => `  ${hints(locale)}\n  </head>`)
      .replace('<div id="root"></div>', () => `<div id="root">${page}</div>`);
    if (!html.includes('<div inert="" class="app-prerendered" data-prerendered-route=')) {
      throw new Error(`[poruch] prerender: ${route.name} is not the app's layout`);
    }
    const file = `pages/${route.name}${locale === 'ua' ? '' : `.${locale}`}.html`;
    writeFileSync(path.join(dist, file), html);
    files[locale] = file;
  }
  table.push({ name: route.name, path: route.path, file: files.ua, files });
}
// The page of a path no route knows (the app sends it home), in each language: dist/index.html
// with its head in that language.
for (const locale of LOCALE_CODES) {
  const head = pageHead('home', locale);
  writeFileSync(path.join(outDir, `index.${locale}.html`), localiseHead(template, head, locale));
}
writeFileSync(path.join(outDir, 'profile-shadow.css'), SERVICE_SHADOW_CSS);
writeFileSync(path.join(outDir, 'routes.json'), `${JSON.stringify(table, null, 2)}\n`);
console.log(`[poruch] prerendered ${table.length} routes into dist/pages`);
