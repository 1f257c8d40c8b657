/**
 * The widget benchmark's data (run with tsx by widgets.bench.mjs):
 *
 *   tsx packages/widgets/bench/seed.ts <dataDir> <services>
 *
 * Seeds `<services>` synthetic services (`seedSyntheticServices` of `@poruch/server/testing`)
 * into the embedded database of `<dataDir>` (once: a second run finds them and only rewrites the
 * points file), marked so that the server adds no demo catalogue, and writes `<dataDir>/points.json`:
 * every service the map shows (the server's own lean read, `readServices`) as the naive page
 * loads them, `[{ id, name, category, lat, lng }]`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, readServices, seedSyntheticServices } from '@poruch/server/testing';

const [dataDir, count = '100000'] = process.argv.slice(2);
if (!dataDir) throw new Error('[poruch] usage: seed.ts <dataDir> <services>');
const services = Number(count);

const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
try {
  const t = performance.now();
  if (await seedSyntheticServices(database.db, services)) {
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
