/** Interface languages: Ukrainian first, British English second. */
export const LOCALE_CODES = ['ua', 'en_GB'] as const;
export type LocaleCode = (typeof LOCALE_CODES)[number];

/** The default interface language. */
export const DEFAULT_LOCALE: LocaleCode = 'ua';

/** localStorage key holding the chosen locale. */
export const LOCALE_STORAGE_KEY = 'locale';

/** A locale's formatting definition: BCP 47 tag for Intl, currency. */
export interface LocaleDefinition {
  code: string;
  /** BCP 47 language tag given to Intl (Collator, NumberFormat, DateTimeFormat). */
  bcp47: string;
  currency: string;
}

/**
 * Formatting definitions. ru_UA (UAH) exists for formatting only: it is not an interface
 * language: there are no ru_UA resources and the switcher does not offer it.
 */
export const LOCALE_DEFINITIONS = {
  ua: { code: 'ua', bcp47: 'uk-UA', currency: 'UAH' },
  en_GB: { code: 'en_GB', bcp47: 'en-GB', currency: 'GBP' },
  ru_UA: { code: 'ru_UA', bcp47: 'ru-UA', currency: 'UAH' },
} as const satisfies Record<string, LocaleDefinition>;

export const isLocaleCode = (v: unknown): v is LocaleCode =>
  typeof v === 'string' && (LOCALE_CODES as readonly string[]).includes(v);

const dateFormats = new Map<LocaleCode, Intl.DateTimeFormat>();

/**
 * A date and time in the interface language (`uk-UA` or `en-GB`), whatever the browser's own
 * locale is: "25 лист. 2026 р., 14:05" or "25 Nov 2026, 14:05", in the reader's time zone.
 * Every date the site or the widgets show goes through here.
 */
export function formatDate(date: Date | string | number, locale: LocaleCode): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE_DEFINITIONS[locale].bcp47, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(date));
}

/**
 * Month names of the interface languages: Ukrainian's nominative ("листопад 2026") and the
 * genitive that follows a preposition or a day ("з листопада 2026"); English has one form. The
 * same words Intl.DateTimeFormat gives (i18n.test.ts compares every month), without building a
 * DateTimeFormat, whose first construction loads the locale's calendar data: on a phone that cost
 * the profile, which shows one of these dates, a long task of its first render.
 */
const ENGLISH_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const MONTHS: Record<LocaleCode, { alone: readonly string[]; after: readonly string[] }> = {
  ua: {
    alone: [
      'січень',
      'лютий',
      'березень',
      'квітень',
      'травень',
      'червень',
      'липень',
      'серпень',
      'вересень',
      'жовтень',
      'листопад',
      'грудень',
    ],
    after: [
      'січня',
      'лютого',
      'березня',
      'квітня',
      'травня',
      'червня',
      'липня',
      'серпня',
      'вересня',
      'жовтня',
      'листопада',
      'грудня',
    ],
  },
  en_GB: { alone: ENGLISH_MONTHS, after: ENGLISH_MONTHS },
};

/**
 * The month and year of a date in the interface language, in the reader's time zone:
 * "листопад 2026" or "November 2026". `after`: the form that follows a preposition
 * ("з листопада 2026", "since November 2026"), Ukrainian's genitive month.
 */
export function formatMonthYear(
  date: Date | string | number,
  locale: LocaleCode,
  { after = false }: { after?: boolean } = {},
): string {
  const d = new Date(date);
  const months = MONTHS[locale];
  return `${(after ? months.after : months.alone)[d.getMonth()]} ${d.getFullYear()}`;
}

/**
 * The re-confirmation line of a service (docs/product.md § Re-confirmation): "Not confirmed
 * since <month year>" while it is overdue, else "Confirmed <month year>"; null before its first
 * approval. Cards show only the first (`overdueOnly`), the profile either.
 */
export function confirmationLabel(
  t: (key: string, params?: Record<string, unknown>) => string,
  locale: LocaleCode,
  s: { confirmation: string; confirmedAt: string | null },
  { overdueOnly = false }: { overdueOnly?: boolean } = {},
): string | null {
  if (!s.confirmedAt) return null;
  if (s.confirmation === 'overdue') {
    return t('home.not_confirmed_since', {
      date: formatMonthYear(s.confirmedAt, locale, { after: true }),
    });
  }
  return overdueOnly ? null : t('home.confirmed', { date: formatMonthYear(s.confirmedAt, locale) });
}
