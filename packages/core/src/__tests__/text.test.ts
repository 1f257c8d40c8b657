import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as core from '../index.js';
import {
  VALIDATION_KEYS,
  campaignInputSchema,
  credentialsChangeSchema,
  credentialsSchema,
  declineSchema,
  geocodeQuerySchema,
  mapQuerySchema,
  personalDataUpdateSchema,
  pushSubscriptionSchema,
  registrationSchema,
  reportInputSchema,
  serviceInputSchema,
  serviceSearchQuerySchema,
  uncheckedTexts,
  usedMarkSchema,
  vacancyInputSchema,
  zodErrorToFieldErrors,
} from '../index.js';

/** Text no field may hold: U+0000, lone surrogates (high, low, at either end), controls. */
const NEVER = {
  nul: 'a\u0000b',
  'lone high surrogate': 'a\uD800b',
  'lone low surrogate': 'a\uDFFFb',
  'high surrogate at the end': 'ab\uD83D',
  'low surrogate at the start': '\uDE00ab',
  'two high surrogates': 'a\uD83D\uD83Db',
  'bell (C0)': 'a\u0007b',
  'escape (C0)': 'a\u001Bb',
  DEL: 'a\u007Fb',
  'next line (C1)': 'a\u0085b',
};
/** Refused on one line (names, e-mails, query values), kept in multi-line texts. */
const LINE_BREAKS = { tab: 'a\tb', 'line feed': 'a\nb', 'carriage return': 'a\r\nb' };
/** Real text that must pass: emoji (surrogate pairs), Ukrainian, Hebrew and Arabic with marks. */
const LEGIT = [
  'Перукарня «Калина» 💇‍♀️🇺🇦',
  'Їжак і ґава: «Ще не вмерла»',
  'שלום עולם \u200F(ישראל)',
  'مرحبا بالعالم',
  '\u2067עברית\u2069 and English',
  'Zürich – Łódź – Ñandú',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀😀',
];

const account = {
  email: 'olena@example.org',
  password: 'correct horse battery',
  confirmPassword: 'correct horse battery',
  firstName: 'Олена',
  lastName: 'Коваль',
};
const service = {
  name: 'Перукарня',
  countryCode: 'PL',
  address: 'ul. Marszałkowska 1, Warszawa',
  addressDetails: { lat: 52.2, lng: 21, displayName: 'Warszawa', city: 'Warszawa' },
  website: 'https://example.org',
  phone: '+48 123 456 789',
  descriptionUa: 'Стрижки',
  descriptionOther: 'Haircuts',
  originalPlace: 'Київ',
  addressConfirmed: true,
};

/**
 * One valid input per kind of text field, and the path of the field to spoil: plain and
 * required lines, multi-line texts, untrimmed passwords, e-mails and URLs (a format after the
 * check), codes with a pattern, nested objects and query values.
 */
const CASES: [string, z.ZodType, Record<string, unknown>, string, 'line' | 'multiline'][] = [
  ['login e-mail', credentialsSchema, { email: 'a@example.org', password: 'x' }, 'email', 'line'],
  [
    'login password',
    credentialsSchema,
    { email: 'a@example.org', password: 'x' },
    'password',
    'line',
  ],
  [
    'new password',
    credentialsChangeSchema,
    { currentPassword: 'old one', newPassword: 'new password', confirmPassword: 'new password' },
    'newPassword',
    'line',
  ],
  ['last name', personalDataUpdateSchema, { lastName: 'Коваль' }, 'lastName', 'line'],
  [
    'account first name',
    registrationSchema,
    { account, service, termsAgreed: true },
    'account.firstName',
    'line',
  ],
  [
    'service name',
    registrationSchema,
    { account, service, termsAgreed: true },
    'service.name',
    'line',
  ],
  [
    'chosen address',
    registrationSchema,
    { account, service, termsAgreed: true },
    'service.addressDetails.displayName',
    'line',
  ],
  ['country code', serviceInputSchema, service, 'countryCode', 'line'],
  ['website', serviceInputSchema, service, 'website', 'line'],
  ['telephone', serviceInputSchema, service, 'phone', 'line'],
  ['description', serviceInputSchema, service, 'descriptionUa', 'multiline'],
  ['vacancy salary', vacancyInputSchema, { name: 'Перукар', salary: '5000 zł' }, 'salary', 'line'],
  [
    'vacancy requirements',
    vacancyInputSchema,
    { name: 'Перукар', requirements: 'Досвід' },
    'requirements',
    'multiline',
  ],
  [
    'report',
    reportInputSchema,
    { serviceId: 'abc', reason: 'other', description: 'Закрито' },
    'description',
    'multiline',
  ],
  [
    'report service id',
    reportInputSchema,
    { serviceId: 'abc', reason: 'other' },
    'serviceId',
    'line',
  ],
  ['decline reason', declineSchema, { reason: 'Немає адреси' }, 'reason', 'multiline'],
  [
    'campaign content',
    campaignInputSchema,
    { subject: 'Новини', content: 'Текст' },
    'content',
    'multiline',
  ],
  ['browser id', usedMarkSchema, { browserId: 'abcdefghijklmnopqrstuvwxyz' }, 'browserId', 'line'],
  ['search q', serviceSearchQuerySchema, { q: 'перукар' }, 'q', 'line'],
  ['map bbox', mapQuerySchema, { bbox: '10,40,20,50', zoom: '5' }, 'bbox', 'line'],
  ['geocode address', geocodeQuerySchema, { address: 'Warszawa' }, 'address', 'line'],
  [
    'push endpoint',
    pushSubscriptionSchema,
    { endpoint: 'https://push.example.org/x', keys: { p256dh: 'k', auth: 'a' } },
    'endpoint',
    'line',
  ],
];

/** The input with the field at `path` (dots) set to `value`. */
function withField(input: Record<string, unknown>, path: string, value: string) {
  const copy = structuredClone(input);
  const parts = path.split('.');
  let node = copy as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  const last = parts[parts.length - 1]!;
  // In the middle of the valid value, so that every other rule (lengths, formats) still holds.
  const old = String(node[last]);
  node[last] = old.slice(0, 1) + value + old.slice(1);
  return copy;
}

describe('text fields refuse what the database cannot store', () => {
  it.each(CASES)('%s: the valid input passes', (_, schema, input) => {
    expect(schema.safeParse(input).error).toBeUndefined();
  });

  describe.each(CASES)('%s', (_, schema, input, path, kind) => {
    const refused = { ...NEVER, ...(kind === 'line' ? LINE_BREAKS : {}) };
    it.each(Object.entries(refused))('refuses %s with validation.invalid_characters', (_, bad) => {
      const result = schema.safeParse(withField(input, path, bad));
      expect(result.success).toBe(false);
      // Only this message for the field: the check stops the rules after it.
      expect(zodErrorToFieldErrors(result.error!)).toEqual([
        {
          field: path,
          key: VALIDATION_KEYS.invalidCharacters,
          params: { name: path.split('.').pop() },
        },
      ]);
    });
    if (kind === 'multiline') {
      it.each(Object.entries(LINE_BREAKS))('keeps a %s', (_, value) => {
        const result = schema.safeParse(withField(input, path, value));
        expect(result.error).toBeUndefined();
      });
    }
  });

  it.each(LEGIT)('accepts %j in names, descriptions and searches', (value) => {
    const parsed = registrationSchema.parse({
      account: { ...account, firstName: value, lastName: value },
      service: { ...service, name: value, descriptionUa: `${value}\n\t${value}`, address: value },
      termsAgreed: true,
    });
    expect(parsed.account.firstName).toBe(value.trim());
    expect(parsed.service.descriptionUa).toBe(`${value}\n\t${value}`.trim());
    expect(serviceSearchQuerySchema.parse({ q: value }).q).toBe(value.trim());
  });

  it('trims surrounding line breaks of a one-line field instead of refusing them', () => {
    expect(personalDataUpdateSchema.parse({ lastName: ' Коваль\n' }).lastName).toBe('Коваль');
  });

  it('builds every string of every input schema with text() (the one place of the rule)', () => {
    const inputs = Object.entries(core).filter(
      ([name, value]) =>
        value instanceof z.ZodType &&
        (/(Input|Query|Params|Update|Change|Deletion|Create)Schema$/.test(name) ||
          [
            'credentialsSchema',
            'personalDataSchema',
            'resetPasswordSchema',
            'accountSignUpSchema',
            'registrationSchema',
            'usedMarkSchema',
            'declineSchema',
            'pushSubscriptionSchema',
          ].includes(name)),
    );
    expect(inputs.length).toBeGreaterThan(20);
    const unchecked = inputs.flatMap(([name, schema]) =>
      uncheckedTexts(schema as z.ZodType).map((path) => `${name}: ${path}`),
    );
    expect(unchecked).toEqual([]);
    // The walk finds a bare string where there is one.
    expect(uncheckedTexts(z.strictObject({ a: z.array(z.string().max(3)).optional() }))).toEqual([
      'a.[]',
    ]);
  });
});
