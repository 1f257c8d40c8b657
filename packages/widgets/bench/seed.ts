/**
 * The widget benchmark's data (run with tsx by widgets.bench.mjs):
 *
 *   tsx packages/widgets/bench/seed.ts <dataDir> <services>
 *
 * Seeds `<services>` synthetic services with the server's `seedSynthetic` into the embedded
 * database of `<dataDir>` (once: a second run finds them and only rewrites the points file), marks
 * the demo catalogue as seeded so the server adds nothing, and writes `<dataDir>/points.json`:
 * every service the map shows (the server's own lean read, `readServices`) as the naive page
 * loads them, `[{ id, name, category, lat, lng }]`.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../../server/src/db/index.js';
import { settings } from '../../server/src/db/schema.js';
import { readServices } from '../../server/src/map/MapCache.js';
import { DEMO_SEED_KEY } from '../../server/src/seed.js';
import { seedSynthetic } from '../../server/src/seed/synthetic.js';

// drizzle-orm is the server's dependency, not the widgets'.
const serverRequire = createRequire(new URL('../../server/package.json', import.meta.url));
const { sql } = (await import(
  pathToFileURL(serverRequire.resolve('drizzle-orm')).href
)) as typeof import('drizzle-orm');

const [dataDir, count = '100000'] = process.argv.slice(2);
if (!dataDir) throw new Error('[poruch] usage: seed.ts <dataDir> <services>');
const services = Number(count);

const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
try {
  const result = await database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from services`,
  );
  const existing = (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
  if (existing !== services) {
    if (existing) await database.db.execute(sql`TRUNCATE used_marks, reports, vacancies, services`);
    const t = performance.now();
    await seedSynthetic(database.db, { services, vacancies: 0 });
    await database.db
      .insert(settings)
      .values({ key: DEMO_SEED_KEY, value: 'widgets bench' })
      .onConflictDoNothing();
    console.log(
      `[bench] seeded ${services} services in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  const points = (await readServices(database.db)).map(({ id, name, category, lat, lng }) => ({
    id,
    name,
    category,
    lat,
    lng,
  }));
  writeFileSync(path.join(dataDir, 'points.json'), JSON.stringify(points));
  console.log(`[bench] ${points.length} points on the map`);
} finally {
  await database.close();
}
