import { eq } from 'drizzle-orm';
import type { CategoryKey, Experience } from '@poruch/core';
import type { Db } from './db/index.js';
import { services, settings, vacancies } from './db/schema.js';

const SEED_KEY = 'demo_seeded_at';

/** Cities with Ukrainian communities: name, country, position. */
const CITIES: [string, string, number, number][] = [
  ['Warszawa', 'PL', 52.2297, 21.0122],
  ['Kraków', 'PL', 50.0647, 19.945],
  ['Wrocław', 'PL', 51.1079, 17.0385],
  ['Berlin', 'DE', 52.52, 13.405],
  ['München', 'DE', 48.1351, 11.582],
  ['Praha', 'CZ', 50.0755, 14.4378],
  ['Wien', 'AT', 48.2082, 16.3738],
  ['London', 'GB', 51.5072, -0.1276],
  ['Dublin', 'IE', 53.3498, -6.2603],
  ['Lisboa', 'PT', 38.7223, -9.1393],
  ['Barcelona', 'ES', 41.3874, 2.1686],
  ['Roma', 'IT', 41.9028, 12.4964],
  ['Paris', 'FR', 48.8566, 2.3522],
  ['Amsterdam', 'NL', 52.3676, 4.9041],
  ['Vilnius', 'LT', 54.6872, 25.2797],
  ['Chișinău', 'MD', 47.0105, 28.8638],
  ['Toronto', 'CA', 43.6532, -79.3832],
  ['New York', 'US', 40.7128, -74.006],
];

interface Template {
  category: CategoryKey;
  name: string;
  ua: string;
  en: string;
  vacancy?: [string, Experience, string];
}

const TEMPLATES: Template[] = [
  {
    category: 'beauty_and_health',
    name: 'Перукарня «Калина»',
    ua: 'Жіночі та чоловічі стрижки, фарбування, укладки. Говоримо українською.',
    en: 'Haircuts, colouring and styling for women and men. We speak Ukrainian.',
    vacancy: ['Перукар-універсал', 'one_two', '2500–3200 €'],
  },
  {
    category: 'medicine',
    name: 'Сімейний лікар Олена Коваль',
    ua: 'Консультації сімейного лікаря, направлення, довідки. Прийом українською та англійською.',
    en: 'Family doctor: consultations, referrals and certificates, in Ukrainian and English.',
  },
  {
    category: 'legal_services',
    name: 'Юридична консультація «Право поруч»',
    ua: 'Легалізація, дозвіл на проживання, тимчасовий захист, трудові спори.',
    en: 'Residence permits, temporary protection, employment disputes.',
    vacancy: ['Помічник юриста', 'three_five', 'за домовленістю'],
  },
  {
    category: 'food',
    name: 'Пекарня «Паляниця»',
    ua: 'Український хліб, пиріжки, торти на замовлення.',
    en: 'Ukrainian bread, pies and cakes to order.',
    vacancy: ['Пекар', 'any', '14 €/год'],
  },
  {
    category: 'education',
    name: 'Школа «Сонях»',
    ua: 'Українська суботня школа для дітей 6–14 років, мова, література, історія.',
    en: 'Ukrainian Saturday school for children aged 6 to 14: language, literature, history.',
    vacancy: ['Вчитель української мови', 'three_five', '1800 €'],
  },
  {
    category: 'translations',
    name: 'Бюро перекладів «Слово»',
    ua: 'Присяжні переклади документів, апостиль, усний переклад.',
    en: 'Sworn translations, apostille and interpreting.',
  },
  {
    category: 'psychology',
    name: 'Психолог Марія Литвин',
    ua: 'Підтримка при стресі та втраті, робота з дітьми й підлітками, онлайн і наживо.',
    en: 'Support with stress and loss, work with children and teenagers, online and in person.',
  },
  {
    category: 'it',
    name: 'DniproSoft',
    ua: 'Розробка вебзастосунків і мобільних застосунків.',
    en: 'Web and mobile application development.',
    vacancy: ['Frontend-розробник (React)', 'three_five', '4000–5500 €'],
  },
  {
    category: 'auto',
    name: 'Автосервіс «Запорожець»',
    ua: 'Ремонт і діагностика авто, шиномонтаж.',
    en: 'Car repair, diagnostics and tyre service.',
    vacancy: ['Автомеханік', 'six_plus', '3000 €'],
  },
  {
    category: 'cleaning',
    name: 'Клінінг «Чиста хата»',
    ua: 'Прибирання квартир і офісів, миття вікон.',
    en: 'Home and office cleaning, window washing.',
    vacancy: ['Працівник з прибирання', 'any', '13 €/год'],
  },
  {
    category: 'transportations',
    name: 'Перевезення «Шлях додому»',
    ua: 'Пасажирські та вантажні перевезення Європа – Україна.',
    en: 'Passenger and parcel transport between Europe and Ukraine.',
    vacancy: ['Водій категорії D', 'six_plus', '3500 €'],
  },
  {
    category: 'realestate',
    name: 'Агенція нерухомості «Дім»',
    ua: 'Допомога з орендою житла, супровід угод.',
    en: 'Help with renting a home, contract support.',
  },
  {
    category: 'for_kids',
    name: 'Дитячий клуб «Веселка»',
    ua: 'Гуртки, творчі заняття й свята для дітей українською.',
    en: 'Clubs, creative workshops and parties for children, in Ukrainian.',
  },
  {
    category: 'culture',
    name: 'Ансамбль «Барвінок»',
    ua: 'Народні танці й спів, виступи на громадських заходах.',
    en: 'Folk dance and song, performances at community events.',
  },
  {
    category: 'social_org',
    name: 'Громада «Разом»',
    ua: 'Допомога новоприбулим: житло, документи, робота, гуманітарна допомога.',
    en: 'Help for newcomers: housing, documents, jobs and humanitarian aid.',
  },
  {
    category: 'photovideo',
    name: 'Фотостудія «Кадр»',
    ua: 'Сімейні й ділові фотосесії, відеозйомка подій.',
    en: 'Family and business photo sessions, event videography.',
  },
];

/**
 * Seeds a realistic demo catalogue on first start, so a newcomer sees a populated map.
 * Runs once per database (a marker in settings); returns how many services it added.
 */
export async function seedDemo(db: Db): Promise<number> {
  const marker = await db.select().from(settings).where(eq(settings.key, SEED_KEY)).limit(1);
  if (marker.length) return 0;
  let count = 0;
  await db.transaction(async (tx) => {
    for (const [i, [city, country, lat, lng]] of CITIES.entries()) {
      for (let j = 0; j < 4; j++) {
        const t = TEMPLATES[(i * 4 + j) % TEMPLATES.length]!;
        // Spread the services of one city around its centre, deterministically.
        const dLat = Math.sin(i * 7 + j * 3) * 0.03;
        const dLng = Math.cos(i * 5 + j * 11) * 0.04;
        const [service] = await tx
          .insert(services)
          .values({
            name: t.name,
            countryCode: country,
            category: t.category,
            address: city,
            addressDetails: {
              lat: lat + dLat,
              lng: lng + dLng,
              displayName: city,
              city,
              countryCode: country,
              approximate: true,
              source: 'gazetteer',
            },
            lat: lat + dLat,
            lng: lng + dLng,
            descriptionUa: t.ua,
            descriptionOther: t.en,
            website: `https://example.org/${encodeURIComponent(t.category)}`,
            phone: '+48 500 000 000',
            isOnline: j === 3,
            haveVacancy: Boolean(t.vacancy),
            isPartner: j === 0,
            status: 'approved',
            usedCount: (i * 13 + j * 7) % 40,
            originalPlace: ['Київ', 'Харків', 'Одеса', 'Львів', 'Дніпро', 'Маріуполь'][
              (i + j) % 6
            ]!,
          })
          .returning({ id: services.id });
        if (t.vacancy) {
          const [name, experience, salary] = t.vacancy;
          await tx.insert(vacancies).values({
            serviceId: service!.id,
            name,
            experience,
            salary,
            requirements: 'Знання української мови; дозвіл на роботу або тимчасовий захист.',
            description: 'Повна зайнятість, дружня команда, допомога з адаптацією.',
            isOpen: (i + j) % 5 !== 0,
          });
        }
        count++;
      }
    }
    await tx.insert(settings).values({ key: SEED_KEY, value: new Date().toISOString() });
  });
  return count;
}
