/**
 * `@poruch/server/testing`: the real server for the tests and benches of the other packages
 * (the widgets, the site's end-to-end suites). They import this, never the server's files by
 * path. A test server runs in-process on a loopback port over a fresh database
 * (`startTestServer`), seeded with scale data (`seedSyntheticServices`) or given rows
 * (`seedPartnerService`, `seedServiceRows`); `close()` stops it and drops its data. Suites that spawn the production build find it in `BUILT_SERVER`.
 *
 * The server's modules load on the first call of one of those functions, so a suite that only
 * spawns the build (and reads answers with `rawGet`) does not load them.
 */
import type * as Given from './seed/given.js';
import type * as Db from './db/index.js';
import type * as MapCache from './map/MapCache.js';
import type * as Server from './__tests__/helpers/server.js';
import type * as Template from './__tests__/helpers/databaseTemplate.js';

export { rawGet, type RawResponse } from './__tests__/helpers/rawGet.js';
export { registration } from './__tests__/helpers/fixtures.js';
export type { TestServer } from './__tests__/helpers/server.js';
export type { Database } from './db/index.js';

/** A file of this package. Not fileURLToPath: under happy-dom import.meta.url is not a file URL. */
const own = (file: string) => decodeURIComponent(new URL(file, import.meta.url).pathname);

/** The built server's entry files (`pnpm build` writes them), for suites that spawn it. */
export const BUILT_SERVER = {
  main: own('../dist/main.js'),
  adminCreate: own('../dist/admin-create.js'),
};

/** `name` of the module `load` imports, imported on the first call. */
function lazy<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  return (async (...args: unknown[]) =>
    ((await load())[name] as (...a: unknown[]) => unknown)(...args)) as M[K];
}

export const startTestServer = lazy(
  (): Promise<typeof Server> => import('./__tests__/helpers/server.js'),
  'startTestServer',
);
export const openDatabase = lazy((): Promise<typeof Db> => import('./db/index.js'), 'openDatabase');
/** A migrated, empty embedded database folder to copy to `<DATA_DIR>/db` (databaseTemplate.ts). */
export const embeddedTemplateDir = lazy(
  (): Promise<typeof Template> => import('./__tests__/helpers/databaseTemplate.js'),
  'embeddedTemplateDir',
);
export const readServices = lazy(
  (): Promise<typeof MapCache> => import('./map/MapCache.js'),
  'readServices',
);
const given = (): Promise<typeof Given> => import('./seed/given.js');
export const seedPartnerService = lazy(given, 'seedPartnerService');
export const seedSyntheticServices = lazy(given, 'seedSyntheticServices');
export const seedServiceRows = lazy(given, 'seedServiceRows');
