import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../../db/index.js';
import { MIGRATIONS_DIR, SERVER_ROOT } from '../../paths.js';
import { POSTGRES_TEMPLATE_PREFIX, throwawayPostgres } from './child.js';

/**
 * Migrated, empty databases that a test copies instead of running initdb and every migration,
 * most of the cost of a new database: a PGlite dump, a PGlite folder on disk (for the built
 * server's DATA_DIR) and a template database on PostgreSQL. Each is made once for a set of
 * migrations and a PGlite version and named by a hash of both, so a changed migration makes a new
 * one. Several test processes may make one at once: each makes its own under a temporary name and
 * renames it into place; a process that finds another one's there uses that.
 */

let key: string | undefined;
function templateKey(): string {
  if (key) return key;
  const hash = createHash('sha256');
  // PGlite's package.json is not exported: it is next to dist/, where the entry resolves.
  const pglite = createRequire(path.join(SERVER_ROOT, 'package.json')).resolve(
    '@electric-sql/pglite',
  );
  hash.update(readFileSync(path.join(path.dirname(pglite), '..', 'package.json')));
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) {
      hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
    }
  }
  key = hash.digest('hex').slice(0, 16);
  return key;
}

/** A name beside `target` for making it before the rename. */
const partialOf = (target: string) => `${target}.${randomBytes(6).toString('hex')}`;

let dump: Promise<Blob> | undefined;

/** The embedded database as PGlite's dump (`openDatabase({ loadDataDir })`), in the temp folder. */
export function pgliteTemplateDump(): Promise<Blob> {
  dump ??= (async () => {
    const file = path.join(os.tmpdir(), `poruch-pglite-template-${templateKey()}.tgz`);
    try {
      return new Blob([await fs.readFile(file)], { type: 'application/x-gzip' });
    } catch {
      // Not made yet.
    }
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const client = (database.db as unknown as { $client: PGlite }).$client;
      const made = await client.dumpDataDir('gzip');
      const partial = partialOf(file);
      await fs.writeFile(partial, Buffer.from(await made.arrayBuffer()));
      await fs.rename(partial, file);
      return made;
    } finally {
      await database.close();
    }
  })();
  return dump;
}

let folder: Promise<string> | undefined;

/**
 * The embedded database as a folder in the temp folder, to copy to `<DATA_DIR>/db` before the
 * built server (or a command) opens it.
 */
export function embeddedTemplateDir(): Promise<string> {
  folder ??= (async () => {
    const dir = path.join(os.tmpdir(), `poruch-db-template-${templateKey()}`);
    try {
      await fs.access(path.join(dir, 'PG_VERSION'));
      return dir;
    } catch {
      // Not made yet.
    }
    const partial = partialOf(dir);
    const database = await openDatabase({
      dataDir: partial,
      loadDataDir: await pgliteTemplateDump(),
      owner: 'test template',
    });
    await database.close();
    try {
      await fs.rename(partial, dir);
    } catch {
      await fs.rm(partial, { recursive: true, force: true }); // another process made it first
    }
    return dir;
  })();
  return folder;
}

let postgresTemplate: Promise<string> | undefined;

/** The name of the template database on the PostgreSQL server, for `CREATE DATABASE … TEMPLATE`. */
export function postgresTemplateName(serverUrl: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `${POSTGRES_TEMPLATE_PREFIX}${templateKey()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      const building = await throwawayPostgres(serverUrl, `${name}_b`);
      await (await openDatabase({ url: building.url, dataDir: '' })).close();
      try {
        await admin.query(`ALTER DATABASE ${building.name} RENAME TO ${name}`);
      } catch {
        await building.drop(); // another process made it first
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplate;
}
