import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/index.js';
import { DataDirBusyError } from '../db/lock.js';
import { settings } from '../db/schema.js';
import { loadEnv } from '../env.js';
import { DEMO_SEED_KEY } from '../seed/demo.js';
import { seedSynthetic } from '../seed/synthetic.js';

const USAGE = `Usage: pnpm seed:synthetic [--services 100000] [--vacancies 300000] [--seed 1] [--reset]

Generates scale data into the configured database (DATA_DIR's embedded database, or
DATABASE_URL). --reset deletes every service, vacancy, report and used mark first.`;

/**
 * `pnpm seed:synthetic --services N --vacancies M [--seed S] [--reset]`: scale data for
 * benchmarks. It also marks the demo catalogue as seeded, so the server does not add the
 * demo services on top of the generated ones.
 */
async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        services: { type: 'string', default: '100000' },
        vacancies: { type: 'string' },
        seed: { type: 'string', default: '1' },
        reset: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = (value: string | undefined, name: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) {
      console.error(`--${name} must be a whole number, got "${value}".\n\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  const serviceCount = count(values.services, 'services');
  const vacancyCount =
    values.vacancies === undefined ? serviceCount * 3 : count(values.vacancies, 'vacancies');
  const seed = count(values.seed, 'seed');

  const env = loadEnv();
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: path.join(env.DATA_DIR, 'db'),
    owner: 'seed:synthetic',
  });
  const target = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`;
  try {
    if (values.reset) {
      console.log('Deleting existing services, vacancies, reports and used marks…');
      await database.db.execute(
        sql`TRUNCATE used_marks, reports, vacancies, services RESTART IDENTITY CASCADE`,
      );
    }
    console.log(
      `Generating ${serviceCount} services and ${vacancyCount} vacancies (seed ${seed}) into ${target}…`,
    );
    let lastPrinted = 0;
    const result = await seedSynthetic(database.db, {
      services: serviceCount,
      vacancies: vacancyCount,
      seed,
      onProgress: ({ phase, done, total }) => {
        const now = performance.now();
        if (done === total || now - lastPrinted > 1000) {
          lastPrinted = now;
          const percent = total ? Math.round((done / total) * 100) : 100;
          console.log(`  ${phase}: ${done}/${total} (${percent}%)`);
        }
      },
    });
    await database.db
      .insert(settings)
      .values({ key: DEMO_SEED_KEY, value: `synthetic ${new Date().toISOString()}` })
      .onConflictDoNothing();
    console.log(
      `Done in ${(result.ms / 1000).toFixed(1)} s: ${result.services} services in ${result.countries} countries, ` +
        `${result.vacancies} vacancies, ${result.servicesWithVacancies} services with open vacancies.`,
    );
  } catch (error) {
    if (/duplicate key|unique constraint/i.test(String((error as Error).message))) {
      console.error(
        `These rows already exist (same --seed on the same database). Pass --reset or another --seed.`,
      );
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
});
