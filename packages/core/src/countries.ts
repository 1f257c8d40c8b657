import { LOCALE_DEFINITIONS, type LocaleCode } from './i18n/locales.js';
import type { CountryOption } from './schemas/options.js';
import type { Translate } from './i18n/translate.js';

/** A country of the picker before translation: two-letter code and English name. */
export interface Country {
  /** ISO 3166-1 alpha-2 code, upper case (`XK` for Kosovo, `GB` for Great Britain). */
  readonly code: string;
  /** The English name, shown beside the translated one. */
  readonly original: string;
}

/**
 * The countries a service can be in: Europe with its microstates and crown dependencies,
 * Ukraine's neighbours, and a chosen few countries beyond Europe.
 * Russia and Belarus are left out on purpose. Kept in code order.
 */
export const COUNTRIES: readonly Country[] = [
  { code: 'AD', original: 'Andorra' },
  { code: 'AE', original: 'United Arab Emirates' },
  { code: 'AL', original: 'Albania' },
  { code: 'AM', original: 'Armenia' },
  { code: 'AQ', original: 'Antarctica' },
  { code: 'AR', original: 'Argentina' },
  { code: 'AT', original: 'Austria' },
  { code: 'AU', original: 'Australia' },
  { code: 'AZ', original: 'Azerbaijan' },
  { code: 'BA', original: 'Bosnia and Herzegovina' },
  { code: 'BE', original: 'Belgium' },
  { code: 'BG', original: 'Bulgaria' },
  { code: 'BR', original: 'Brazil' },
  { code: 'CA', original: 'Canada' },
  { code: 'CH', original: 'Switzerland' },
  { code: 'CL', original: 'Chile' },
  { code: 'CY', original: 'Cyprus' },
  { code: 'CZ', original: 'Czechia' },
  { code: 'DE', original: 'Germany' },
  { code: 'DK', original: 'Denmark' },
  { code: 'EE', original: 'Estonia' },
  { code: 'EG', original: 'Egypt' },
  { code: 'ES', original: 'Spain' },
  { code: 'FI', original: 'Finland' },
  { code: 'FO', original: 'Faroe Islands' },
  { code: 'FR', original: 'France' },
  { code: 'GB', original: 'Great Britain' },
  { code: 'GE', original: 'Georgia' },
  { code: 'GG', original: 'Guernsey' },
  { code: 'GI', original: 'Gibraltar' },
  { code: 'GR', original: 'Greece' },
  { code: 'HR', original: 'Croatia' },
  { code: 'HU', original: 'Hungary' },
  { code: 'IE', original: 'Ireland' },
  { code: 'IL', original: 'Israel' },
  { code: 'IM', original: 'Isle of Man' },
  { code: 'IN', original: 'India' },
  { code: 'IS', original: 'Iceland' },
  { code: 'IT', original: 'Italy' },
  { code: 'JE', original: 'Jersey' },
  { code: 'JP', original: 'Japan' },
  { code: 'LB', original: 'Lebanon' },
  { code: 'LI', original: 'Liechtenstein' },
  { code: 'LT', original: 'Lithuania' },
  { code: 'LU', original: 'Luxembourg' },
  { code: 'LV', original: 'Latvia' },
  { code: 'MC', original: 'Monaco' },
  { code: 'MD', original: 'Moldova' },
  { code: 'ME', original: 'Montenegro' },
  { code: 'MK', original: 'North Macedonia' },
  { code: 'MT', original: 'Malta' },
  { code: 'MX', original: 'Mexico' },
  { code: 'NL', original: 'Netherlands' },
  { code: 'NO', original: 'Norway' },
  { code: 'NZ', original: 'New Zealand' },
  { code: 'PL', original: 'Poland' },
  { code: 'PT', original: 'Portugal' },
  { code: 'PY', original: 'Paraguay' },
  { code: 'RO', original: 'Romania' },
  { code: 'RS', original: 'Serbia' },
  { code: 'SE', original: 'Sweden' },
  { code: 'SI', original: 'Slovenia' },
  { code: 'SK', original: 'Slovakia' },
  { code: 'SM', original: 'San Marino' },
  { code: 'TH', original: 'Thailand' },
  { code: 'TR', original: 'Turkey' },
  { code: 'UA', original: 'Ukraine' },
  { code: 'US', original: 'United States' },
  { code: 'UY', original: 'Uruguay' },
  { code: 'VA', original: 'Vatican City' },
  { code: 'VE', original: 'Venezuela' },
  { code: 'XK', original: 'Kosovo' },
  { code: 'ZA', original: 'South Africa' },
];

/** Every country code of {@link COUNTRIES}. */
export const COUNTRY_CODES: readonly string[] = COUNTRIES.map((c) => c.code);

const byCode = new Map(COUNTRIES.map((c) => [c.code, c]));

/** Translation key of a country's display name: `country_name.<code>`. */
export const countryNameKey = (code: string): string => `country_name.${code.toUpperCase()}`;

/**
 * The country with this code, case-insensitive, or `undefined` when it is not in the list.
 * Pass `t` to get a {@link CountryOption} with its display name.
 */
export function findByCode(code: string | null | undefined): Country | undefined;
export function findByCode(
  code: string | null | undefined,
  t: Translate,
): CountryOption | undefined;
export function findByCode(
  code: string | null | undefined,
  t?: Translate,
): Country | CountryOption | undefined {
  if (!code) return undefined;
  const country = byCode.get(code.trim().toUpperCase());
  if (!country || !t) return country;
  return { code: country.code, original: country.original, name: t(countryNameKey(country.code)) };
}

/**
 * The country options of a picker: each with its display name from `country_name.<code>`,
 * sorted alphabetically by that name with the locale's collation (`uk-UA` for ua, `en-GB`
 * for en_GB). A fresh array on every call.
 *
 * @param t translates `country_name.<code>`
 * @param locale whose collation sorts the list. Defaults to `ua`.
 */
export function getCountries(
  t: Translate,
  locale: LocaleCode | keyof typeof LOCALE_DEFINITIONS = 'ua',
): CountryOption[] {
  const collator = new Intl.Collator(LOCALE_DEFINITIONS[locale]?.bcp47 ?? 'uk-UA', {
    sensitivity: 'base',
  });
  return COUNTRIES.map((c) => ({
    code: c.code,
    original: c.original,
    name: t(countryNameKey(c.code)),
  })).sort((a, b) => collator.compare(a.name, b.name) || a.code.localeCompare(b.code));
}

// Flags ---------------------------------------------------------------------------------------

/**
 * The two-letter codes flag-icons 7.5 ships as `flags/4x3/<code>.svg` (its `xx` "unknown" flag
 * left out). Kept in code rather than read from disk so this module works in browsers; a test
 * compares it with the installed package.
 */
const FLAG_ICON_CODES = new Set(
  (
    'ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs ' +
    'bt bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cp cr cu cv cw cx cy cz de dg dj dk dm do dz ' +
    'ec ee eg eh er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw ' +
    'gy hk hm hn hr ht hu ic id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky ' +
    'kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw ' +
    'mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pc pe pf pg ph pk pl pm pn pr ps pt pw py qa ' +
    're ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj ' +
    'tk tl tm tn to tr tt tv tw tz ua ug um un us uy uz va vc ve vg vi vn vu wf ws xk ye yt za zm zw'
  ).split(' '),
);

/** Every two-letter code that has a flag-icons flag, lower case. */
export const FLAG_CODES: ReadonlySet<string> = FLAG_ICON_CODES;

/** True when flag-icons has a flag for this country code (any case). */
export const hasFlag = (code: string | null | undefined): boolean =>
  !!code && FLAG_ICON_CODES.has(code.trim().toLowerCase());

/**
 * A neutral grey 4:3 flag with a thin frame, as a data URI: shown for a country without a flag
 * (docs/product.md, Layout and navigation).
 */
export const FLAG_PLACEHOLDER =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480">' +
      '<rect width="640" height="480" fill="#e5e7eb"/>' +
      '<rect x="8" y="8" width="624" height="464" fill="none" stroke="#9ca3af" stroke-width="16"/>' +
      '<path d="M200 140v200M200 150h220l-40 50 40 50H200" fill="none" stroke="#9ca3af" stroke-width="20" stroke-linejoin="round"/>' +
      '</svg>',
  );

/**
 * Module specifier of a country's flag, for bundlers that import assets
 * (`import(flagModuleId('pl'))` or a glob over `flag-icons/flags/4x3/*.svg`), e.g.
 * `flag-icons/flags/4x3/pl.svg`. `null` when flag-icons has no flag for the code.
 */
export const flagModuleId = (code: string): string | null =>
  hasFlag(code) ? `flag-icons/flags/4x3/${code.trim().toLowerCase()}.svg` : null;

/**
 * Default base URL of the flag files: the site and the server serve the `flags/4x3` folder of
 * flag-icons at `/flags/4x3`.
 */
export const FLAG_BASE_URL = '/flags/4x3';

/**
 * URL of a country's 4:3 SVG flag, or {@link FLAG_PLACEHOLDER} for a country without a flag.
 *
 * @param base where the `flags/4x3` folder of flag-icons is served. Defaults to `/flags/4x3`.
 */
export function flagUrl(code: string | null | undefined, base: string = FLAG_BASE_URL): string {
  if (!code || !hasFlag(code)) return FLAG_PLACEHOLDER;
  return `${base.replace(/\/+$/, '')}/${code.trim().toLowerCase()}.svg`;
}

/**
 * CSS classes of flag-icons' stylesheet (`fi fi-pl`), for pages that load `flag-icons/css`.
 * `null` for a country without a flag.
 */
export const flagClassName = (code: string): string | null =>
  hasFlag(code) ? `fi fi-${code.trim().toLowerCase()}` : null;
