import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import {
  ACCOUNT_TYPES,
  ADMIN_ROLES,
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  CATEGORY_KEYS,
  CATEGORY_SELECTORS,
  COUNTRIES,
  ERROR_KEYS,
  EXPERIENCE_KEYS,
  LANGUAGE_OPTIONS,
  LOCALE_CODES,
  REPORT_REASONS,
  REPORT_STATUSES,
  SERVICE_STATUSES,
  TRANSLATIONS,
  VALIDATION_KEYS,
  accountDeletionSchema,
  accountSchema,
  accountSignUpSchema,
  adminCreateSchema,
  adminRoleSchema,
  auditQuerySchema,
  campaignInputSchema,
  campaignSchema,
  createI18n,
  formatMonthYear,
  credentialsChangeSchema,
  credentialsSchema,
  getI18n,
  getStoredLocale,
  initI18n,
  languageOptionSchema,
  personalDataSchema,
  registrationSchema,
  reportInputSchema,
  reportSchema,
  resetPasswordSchema,
  serviceInputSchema,
  serviceSchema,
  statusTextKey,
  storeLocale,
  toKey,
  translateFieldError,
  translator,
  vacancyInputSchema,
  vacancySchema,
} from '../../index.js';

/** Every leaf key of a nested resource, dotted. */
function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

/** Every object key of a zod schema, through wrappers, pipes, arrays and refinements. */
function fieldNames(schema: z.ZodType, into = new Set<string>()): Set<string> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })
    ._zod.def;
  switch (def.type) {
    case 'object':
      for (const [key, inner] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        into.add(key);
        fieldNames(inner, into);
      }
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      fieldNames(def.innerType as z.ZodType, into);
      break;
    case 'pipe':
      fieldNames(def.in as z.ZodType, into);
      fieldNames(def.out as z.ZodType, into);
      break;
    case 'array':
      fieldNames(def.element as z.ZodType, into);
      break;
  }
  return into;
}

const ua = createI18n('ua');
const en = createI18n('en_GB');
const keysOf = (code: (typeof LOCALE_CODES)[number]) => new Set(leafKeys(TRANSLATIONS[code]));

describe('resources', () => {
  it('ua and en_GB have exactly the same key set', () => {
    const uaKeys = [...keysOf('ua')].sort();
    const enKeys = [...keysOf('en_GB')].sort();
    expect(enKeys).toEqual(uaKeys);
    expect(uaKeys.length).toBeGreaterThan(400);
  });

  it('no translation is empty, and every {param} of ua exists in en_GB and back', () => {
    const params = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of keysOf('ua')) {
      const u = ua.t(key);
      const e = en.t(key);
      expect(u.trim(), key).not.toBe('');
      expect(e.trim(), key).not.toBe('');
      expect(params(u), key).toEqual(params(e));
    }
  });

  it('ua is really Ukrainian: Cyrillic wherever en_GB has Latin words', () => {
    const sameAllowed = new Set([
      'app.name',
      'language.ua',
      'language.en_GB',
      'common.ok',
      'field.id',
    ]);
    for (const key of keysOf('ua')) {
      const e = en.t(key);
      if (
        sameAllowed.has(key) ||
        !/[a-z]{3}/i.test(e.replace(/\{\w+\}|http:\/\/|cookie|OpenStreetMap/g, ''))
      )
        continue;
      expect(ua.t(key), key).toMatch(/[а-яіїєґ]/i);
    }
  });

  const mustHave = (keys: readonly string[]) => {
    for (const code of LOCALE_CODES) {
      const have = keysOf(code);
      const missing = keys.filter((k) => !have.has(k));
      expect(missing, code).toEqual([]);
    }
  };

  it('covers the whole error catalogue', () => mustHave(ERROR_KEYS.map((k) => `error.${k}`)));
  it('covers every validation key', () => mustHave(Object.values(VALIDATION_KEYS)));
  it('covers every category and selector', () =>
    mustHave([...CATEGORY_KEYS, ...CATEGORY_SELECTORS].map((k) => `category.${k}`)));
  it('covers every country', () => mustHave(COUNTRIES.map((c) => `country_name.${c.code}`)));
  it('covers every enum of the schemas', () =>
    mustHave([
      ...EXPERIENCE_KEYS.map((k) => `experience.${k}`),
      ...REPORT_REASONS.map((k) => `report_reason.${k}`),
      ...REPORT_STATUSES.map((k) => `report_status.${k}`),
      ...SERVICE_STATUSES.map((k) => `service_status.${k}`),
      ...ACCOUNT_TYPES.map((k) => `account_type.${k}`),
      ...LOCALE_CODES.map((k) => `language.${k}`),
      // The audit screen shows no raw action code.
      ...AUDIT_ACTIONS.map((k) => `audit.action.${k}`),
      ...AUDIT_TARGET_TYPES.map((k) => `audit.type.${k}`),
      ...ADMIN_ROLES.filter((r) => r !== 'none').map((k) => `admin.role_${k}`),
    ]));

  it('labels every field of every user-facing schema', () => {
    const schemas = [
      accountSchema,
      credentialsSchema,
      personalDataSchema,
      credentialsChangeSchema,
      resetPasswordSchema,
      accountDeletionSchema,
      accountSignUpSchema,
      adminCreateSchema,
      registrationSchema,
      serviceInputSchema,
      serviceSchema,
      vacancyInputSchema,
      vacancySchema,
      reportInputSchema,
      reportSchema,
      campaignInputSchema,
      campaignSchema,
      auditQuerySchema,
      adminRoleSchema,
    ];
    const names = new Set<string>();
    for (const s of schemas) fieldNames(s as z.ZodType, names);
    expect(
      names.has('termsAgreed') && names.has('addressConfirmed') && names.has('sendToSelf'),
    ).toBe(true);
    mustHave([...names].map((n) => `field.${n}`));
  });

  it('covers the menu, success, cookie, prompt and screen texts', () =>
    mustHave([
      ...[
        'services',
        'about',
        'support',
        'login',
        'register',
        'account',
        'logout',
        'store',
        'login_for_business',
        'support_the_project',
      ].map((k) => `menu.${k}`),
      ...[
        'report_sent',
        'credentials_changed',
        'service_shown_on_map',
        'service_removed_from_map',
        'data_changed',
        'service_created',
        'vacancy_created',
        'vacancy_updated',
        'vacancy_deleted',
        'partner_status_changed',
        'emails_sent',
        'unsubscribe_succeeded',
        'unsubscribe_failed',
        'account_deleted',
        'temporary_password_sent',
        'zoom_in_hint',
      ].map((k) => `success.${k}`),
      ...[
        'text',
        'privacy_policy',
        'preferences',
        'reject',
        'accept',
        'essentials',
        'analytics',
        'save',
      ].map((k) => `cookies.${k}`),
      'update.prompt',
      'install.ios_hint',
      'install.add',
      'install.close',
      'confirm.accept',
      'confirm.reject',
      'toast.close',
      'registration.title',
      'account.title',
      'personal_data.title',
      'credentials.title',
      'my_services.title',
      'add_service.title',
      'admin.list_title',
      'admin.filter_expand',
      'admin.filter_collapse',
      'admin.review_title',
      'reports.title',
      'report_form.title',
      'vacancies.title',
      'vacancies.add',
      'vacancies.edit',
      'vacancies.delete',
      'service_profile.tab_services',
      'service_profile.tab_vacancies',
      'service_profile.tab_contacts',
      'service_profile.back_to_list',
      'email_sender.title',
      'unsubscribe.title',
      'account_deletion.title',
      'disclaimer.title',
    ]));

  it('the update prompt asks to load the new version in en_GB', () => {
    expect(en.t('update.prompt')).toBe('A new version is available. Load it now?');
    expect(en.t('install.ios_hint')).toMatch(/Share.*Add to Home Screen/);
  });
});

describe('i18next setup', () => {
  it('a missing key shows "Missing translation: <key>" in every locale', () => {
    expect(ua.t('error.no_such_key')).toBe('Missing translation: error.no_such_key');
    expect(en.t('nope')).toBe('Missing translation: nope');
  });

  it('does not fall back from en_GB to ua', () => {
    expect(en.t('category.auto')).toBe('Cars');
    expect(ua.t('category.auto')).toBe('Авто');
  });

  it('interpolates {name} with single braces and does not escape', () => {
    expect(en.t('validation.required', { name: 'First name' })).toBe('First name: required field');
    expect(ua.t('validation.min_length', { length: 8 })).toBe('Кількість символів — щонайменше 8');
    expect(en.t('validation.link', { host: 'https://' })).toBe(
      'The link must start with http:// or https://',
    );
    expect(en.t('dashboard.greeting', { name: '<b>O’Neil & Co</b>' })).toBe(
      'Hello, <b>O’Neil & Co</b>!',
    );
  });

  it('a key may contain a colon: there is no namespace separator', () => {
    expect(en.t('a:b')).toBe('Missing translation: a:b');
  });

  it('instances are independent', () => {
    expect(ua.language).toBe('ua');
    expect(en.language).toBe('en_GB');
    expect(createI18n('xx' as never).language).toBe('ua');
  });

  it('translateFieldError puts the field label into the message', () => {
    const t = translator(ua);
    expect(
      translateFieldError(t, {
        field: 'account.firstName',
        key: VALIDATION_KEYS.required,
        params: { name: 'firstName' },
      }),
    ).toBe('Ім’я — обов’язкове поле');
    expect(
      translateFieldError(t, {
        field: 'x',
        key: VALIDATION_KEYS.unknownField,
        params: { name: 'isAdmin' },
      }),
    ).toBe('Невідоме поле: isAdmin');
    expect(
      translateFieldError(translator(en), {
        field: 'email',
        key: VALIDATION_KEYS.email,
        params: { email: 'name@example.com' },
      }),
    ).toBe('Enter an e-mail address like name@example.com');
  });
});

describe('keys', () => {
  it('toKey turns spaces into underscores', () => {
    expect(toKey('login for business')).toBe('login_for_business');
    expect(toKey('  support  the\tproject ')).toBe('support_the_project');
    expect(toKey('Not Found')).toBe('Not_Found');
  });
  it('statusTextKey lower-cases too', () => {
    expect(statusTextKey('Not Found')).toBe('not_found');
    expect(statusTextKey('Internal Server Error')).toBe('internal_server_error');
    expect(statusTextKey('')).toBe('');
  });
});

describe('stored locale', () => {
  afterEach(() => vi.unstubAllGlobals());

  const fakeStorage = () => {
    const data = new Map<string, string>();
    return {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      data,
    };
  };

  it('without localStorage (Node) gives the default and stores nothing', () => {
    expect(typeof localStorage).toBe('undefined');
    expect(getStoredLocale()).toBe('ua');
    expect(getStoredLocale('en_GB')).toBe('en_GB');
    expect(storeLocale('en_GB')).toBe(false);
  });

  it('stores under the key "locale" and reads it back; ignores unknown values', () => {
    const storage = fakeStorage();
    vi.stubGlobal('localStorage', storage);
    expect(storeLocale('en_GB')).toBe(true);
    expect(storage.data.get('locale')).toBe('en_GB');
    expect(getStoredLocale()).toBe('en_GB');
    expect(initI18n().language).toBe('en_GB');
    expect(getI18n().t('menu.logout')).toBe('Log out');
    storage.data.set('locale', 'ru_UA');
    expect(getStoredLocale()).toBe('ua');
  });

  it('survives a localStorage that throws', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(getStoredLocale()).toBe('ua');
    expect(storeLocale('ua')).toBe(false);
  });
});

describe('LANGUAGE_OPTIONS', () => {
  it('offers ua with UA and en_GB with GB', () => {
    expect(LANGUAGE_OPTIONS.map((o) => [o.code, o.country])).toEqual([
      ['ua', 'UA'],
      ['en_GB', 'GB'],
    ]);
    for (const o of LANGUAGE_OPTIONS) expect(languageOptionSchema.parse(o)).toEqual(o);
  });
});

describe('formatMonthYear', () => {
  // Its month names are a table; Intl.DateTimeFormat is what they must equal, in every month,
  // both languages and both forms (standalone; after a preposition, which Intl gives beside a day).
  it.each([
    ['ua', 'uk-UA'],
    ['en_GB', 'en-GB'],
  ] as const)('%s: the words Intl gives, every month', (locale, tag) => {
    for (let month = 0; month < 12; month++) {
      const date = new Date(2026, month, 15, 12);
      const intl = (options: Intl.DateTimeFormatOptions) => {
        const parts = new Intl.DateTimeFormat(tag, options).formatToParts(date);
        const part = (type: string) => parts.find((p) => p.type === type)?.value;
        return `${part('month')} ${part('year')}`;
      };
      expect(formatMonthYear(date, locale)).toBe(intl({ month: 'long', year: 'numeric' }));
      expect(formatMonthYear(date.toISOString(), locale, { after: true })).toBe(
        intl({ day: 'numeric', month: 'long', year: 'numeric' }),
      );
    }
  });
});
