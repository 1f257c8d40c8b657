import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  LIMITS,
  VALIDATION_EXAMPLES,
  VALIDATION_KEYS,
  accountDeletionSchema,
  campaignInputSchema,
  countryCodeSchema,
  credentialsChangeSchema,
  credentialsSchema,
  emailSchema,
  issueToFieldError,
  personalDataSchema,
  phoneSchema,
  pushSubscriptionSchema,
  registrationSchema,
  reportInputSchema,
  resetPasswordSchema,
  serviceInputSchema,
  text,
  requireAddressConfirmation,
  vacancyInputSchema,
  websiteSchema,
  zodErrorToFieldErrors,
  type FieldError,
} from '../index.js';

/** The field errors of a parse that must fail. */
function errorsOf(schema: z.ZodType, input: unknown): FieldError[] {
  const result = schema.safeParse(input);
  expect(result.success, `expected ${JSON.stringify(input)} to fail`).toBe(false);
  return zodErrorToFieldErrors(result.error!);
}

const validAccount = {
  email: 'Olena@Example.com',
  password: 'secret-pass',
  confirmPassword: 'secret-pass',
  firstName: 'Олена',
};
const validService = {
  name: 'Перукарня «Поруч»',
  countryCode: 'pl',
  category: 'beauty_and_health',
  address: 'ul. Marszałkowska 1, Warszawa',
  website: 'https://example.com',
  phone: '+48 123 456 789',
  showOnMap: true,
  addressConfirmed: true,
};

describe('required', () => {
  it('a missing field gives validation.required with the field name', () => {
    expect(errorsOf(credentialsSchema, { password: 'x' })).toEqual([
      { field: 'email', key: VALIDATION_KEYS.required, params: { name: 'email' } },
    ]);
  });
  it('an empty or blank text is required too', () => {
    expect(errorsOf(personalDataSchema, { firstName: '   ' })).toEqual([
      { field: 'firstName', key: VALIDATION_KEYS.required, params: { name: 'firstName' } },
    ]);
    expect(errorsOf(accountDeletionSchema, { currentPassword: '' })).toEqual([
      {
        field: 'currentPassword',
        key: VALIDATION_KEYS.required,
        params: { name: 'currentPassword' },
      },
    ]);
  });
  it('a nested path is joined with dots, the name is the last part', () => {
    const errors = errorsOf(registrationSchema, {
      account: { ...validAccount, firstName: '' },
      service: validService,
      termsAgreed: true,
    });
    expect(errors).toContainEqual({
      field: 'account.firstName',
      key: VALIDATION_KEYS.required,
      params: { name: 'firstName' },
    });
  });
});

describe('an empty field says required, not its length rule', () => {
  const required = (field: string) => ({
    field,
    key: VALIDATION_KEYS.required,
    params: { name: field.split('.').pop() },
  });
  it('any text with a minimum length, blank or empty', () => {
    const schema = z.object({ code: text().min(5), pin: text({ trim: false }).min(4) });
    expect(errorsOf(schema, { code: '  ', pin: '' })).toEqual([required('code'), required('pin')]);
    // One character short is still the length rule.
    expect(errorsOf(schema, { code: 'abcd', pin: 'abcd' })).toEqual([
      { field: 'code', key: VALIDATION_KEYS.minLength, params: { length: 5 } },
    ]);
  });
  it('an empty choice or an empty value of a format', () => {
    expect(
      errorsOf(serviceInputSchema, { ...validService, name: ' ', countryCode: '', category: '' }),
    ).toEqual([required('name'), required('countryCode'), required('category')]);
    expect(errorsOf(reportInputSchema, { serviceId: 's1', reason: '' })).toEqual([
      required('reason'),
    ]);
    // A value that is there but wrong keeps its own message.
    expect(errorsOf(countryCodeSchema, 'p')).toEqual([
      { field: '', key: VALIDATION_KEYS.invalid, params: { name: '' } },
    ]);
  });
  it('the password and its confirmation at registration', () => {
    const errors = errorsOf(registrationSchema, {
      account: { ...validAccount, password: '', confirmPassword: '' },
      service: validService,
      termsAgreed: true,
    });
    expect(errors).toEqual([required('account.password'), required('account.confirmPassword')]);
  });
  it('the confirmation alone, when the password is typed', () => {
    const errors = errorsOf(registrationSchema, {
      account: { ...validAccount, confirmPassword: '' },
      service: validService,
      termsAgreed: true,
    });
    expect(errors).toEqual([required('account.confirmPassword')]);
  });
  it('login, reset and deletion', () => {
    expect(errorsOf(credentialsSchema, { email: '', password: '' })).toEqual([
      required('email'),
      required('password'),
    ]);
    expect(errorsOf(resetPasswordSchema, { email: ' ' })).toEqual([required('email')]);
    expect(errorsOf(accountDeletionSchema, { currentPassword: '' })).toEqual([
      required('currentPassword'),
    ]);
  });
  it('a change of password: the new one, and its confirmation', () => {
    expect(
      errorsOf(credentialsChangeSchema, {
        currentPassword: '',
        newPassword: '',
        confirmPassword: '',
      }),
    ).toEqual([required('currentPassword'), required('newPassword'), required('confirmPassword')]);
    expect(
      errorsOf(credentialsChangeSchema, {
        currentPassword: 'old-pass',
        newPassword: 'new-password',
        confirmPassword: '',
      }),
    ).toEqual([required('confirmPassword')]);
  });
  it('a message set on the schema still wins', () => {
    expect(errorsOf(z.object({ e: emailSchema }), { e: '' })).toEqual([required('e')]);
    expect(
      errorsOf(z.object({ c: text().min(3, { error: VALIDATION_KEYS.invalid }) }), { c: '' }),
    ).toEqual([{ field: 'c', key: VALIDATION_KEYS.invalid, params: { name: 'c' } }]);
  });
});

describe('lengths', () => {
  it('a short password gives min_length with the length', () => {
    const errors = errorsOf(registrationSchema, {
      account: { ...validAccount, password: 'short', confirmPassword: 'short' },
      service: validService,
      termsAgreed: true,
    });
    expect(errors).toEqual([
      {
        field: 'account.password',
        key: VALIDATION_KEYS.minLength,
        params: { length: LIMITS.passwordMin },
      },
    ]);
  });
  it('a long name gives max_length with the length', () => {
    expect(errorsOf(vacancyInputSchema, { name: 'x'.repeat(LIMITS.nameMax + 1) })).toEqual([
      { field: 'name', key: VALIDATION_KEYS.maxLength, params: { length: LIMITS.nameMax } },
    ]);
  });
  it('exactly the maximum passes', () => {
    expect(vacancyInputSchema.safeParse({ name: 'x'.repeat(LIMITS.nameMax) }).success).toBe(true);
  });
  it('a list below its minimum gives min_elements', () => {
    const errors = errorsOf(z.object({ categories: z.array(z.string()).min(2) }), {
      categories: ['a'],
    });
    expect(errors).toEqual([
      { field: 'categories', key: VALIDATION_KEYS.minElements, params: { length: 2 } },
    ]);
  });
});

describe('e-mail', () => {
  it('a malformed e-mail gives validation.email with the example', () => {
    expect(errorsOf(resetPasswordSchema, { email: 'not-an-email' })).toEqual([
      { field: 'email', key: VALIDATION_KEYS.email, params: { email: VALIDATION_EXAMPLES.email } },
    ]);
  });
  it('an e-mail is trimmed and lower-cased', () => {
    expect(emailSchema.parse('  Olena@Example.COM ')).toBe('olena@example.com');
  });
});

describe('links and telephones', () => {
  it.each(['https://example.com', 'http://example.com/path?q=1', ''])('accepts %j', (v) => {
    expect(websiteSchema.safeParse(v).success).toBe(true);
  });
  it.each(['example.com', 'https://', 'http:/example.com'])(
    'rejects %j with validation.link',
    (v) => {
      expect(errorsOf(z.object({ website: websiteSchema }), { website: v })).toEqual([
        { field: 'website', key: VALIDATION_KEYS.link, params: { host: VALIDATION_EXAMPLES.host } },
      ]);
    },
  );
  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' \tjava script:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ftp://example.com',
    'file:///etc/passwd',
  ])('rejects %j with validation.link_scheme', (v) => {
    expect(errorsOf(z.object({ website: websiteSchema }), { website: v })).toEqual([
      { field: 'website', key: VALIDATION_KEYS.linkScheme, params: {} },
    ]);
  });
  it('rejects a scheme split by a control character before reading it', () => {
    expect(
      errorsOf(z.object({ website: websiteSchema }), { website: 'java\nscript:alert(1)' }),
    ).toEqual([
      { field: 'website', key: VALIDATION_KEYS.invalidCharacters, params: { name: 'website' } },
    ]);
  });
  it.each(['javascript:alert(1)', 'https://example.com', 'sms:+48123456789', 'data:,1'])(
    'rejects the telephone %j with validation.phone_scheme',
    (v) => {
      expect(errorsOf(z.object({ phone: phoneSchema }), { phone: v })).toEqual([
        {
          field: 'phone',
          key: VALIDATION_KEYS.phoneScheme,
          params: { phone: VALIDATION_EXAMPLES.phone },
        },
      ]);
    },
  );
  it.each(['+48 123 456 789', '020 7946-0958', '+44 (20) 7946.0958', ''])(
    'accepts the telephone %j',
    (v) => {
      expect(phoneSchema.safeParse(v).success).toBe(true);
    },
  );
  it.each(['call me', '12', '+48 <script>'])(
    'rejects the telephone %j with validation.phone',
    (v) => {
      expect(errorsOf(z.object({ phone: phoneSchema }), { phone: v })).toEqual([
        {
          field: 'phone',
          key: VALIDATION_KEYS.phone,
          params: { phone: VALIDATION_EXAMPLES.phone },
        },
      ]);
    },
  );
});

describe('passwords must match', () => {
  it('at registration', () => {
    const errors = errorsOf(registrationSchema, {
      account: { ...validAccount, confirmPassword: 'other-pass' },
      service: validService,
      termsAgreed: true,
    });
    expect(errors).toEqual([
      {
        field: 'account.confirmPassword',
        key: VALIDATION_KEYS.passwordsMustMatch,
        params: { name: 'confirmPassword' },
      },
    ]);
  });
  it('at a change of credentials', () => {
    const errors = errorsOf(credentialsChangeSchema, {
      currentPassword: 'old-pass',
      newPassword: 'new-password',
      confirmPassword: 'new-passw0rd',
    });
    expect(errors.map((e) => [e.field, e.key])).toEqual([
      ['confirmPassword', VALIDATION_KEYS.passwordsMustMatch],
    ]);
  });
  it('a change of credentials needs a new e-mail or a new password', () => {
    const errors = errorsOf(credentialsChangeSchema, { currentPassword: 'old-pass' });
    expect(errors.map((e) => [e.field, e.key])).toEqual([
      ['newPassword', VALIDATION_KEYS.required],
    ]);
    expect(
      credentialsChangeSchema.safeParse({ currentPassword: 'old-pass', email: 'new@example.com' })
        .success,
    ).toBe(true);
  });
});

describe('agreements', () => {
  it('the terms must be agreed at registration', () => {
    const errors = errorsOf(registrationSchema, {
      account: validAccount,
      service: validService,
      termsAgreed: false,
    });
    expect(errors).toEqual([
      { field: 'termsAgreed', key: VALIDATION_KEYS.mustAgree, params: { name: 'termsAgreed' } },
    ]);
  });
  it('an address shown on the map must be confirmed', () => {
    const schema = requireAddressConfirmation(serviceInputSchema);
    const errors = errorsOf(schema, { ...validService, addressConfirmed: false });
    expect(errors.map((e) => [e.field, e.key])).toEqual([
      ['addressConfirmed', VALIDATION_KEYS.mustAgree],
    ]);
    // Online services and services kept off the map need no confirmation.
    expect(
      schema.safeParse({ ...validService, addressConfirmed: false, isOnline: true }).success,
    ).toBe(true);
    expect(
      schema.safeParse({ ...validService, addressConfirmed: false, showOnMap: false }).success,
    ).toBe(true);
  });
  it('a valid registration parses, with its defaults', () => {
    const r = registrationSchema.parse({
      account: validAccount,
      service: validService,
      termsAgreed: true,
    });
    expect(r.account.email).toBe('olena@example.com');
    expect(r.account.locale).toBe('ua');
    expect(r.service.countryCode).toBe('PL');
    expect(r.service.descriptionUa).toBe('');
    expect(r.service.addressDetails).toBeNull();
  });
});

describe('invalid values and unknown fields', () => {
  it('a wrong type gives validation.invalid', () => {
    expect(errorsOf(vacancyInputSchema, { name: 'Кухар', isOpen: 'yes' })).toEqual([
      { field: 'isOpen', key: VALIDATION_KEYS.invalid, params: { name: 'isOpen' } },
    ]);
  });
  it('an unknown option gives validation.invalid', () => {
    expect(errorsOf(vacancyInputSchema, { name: 'Кухар', experience: 'ten_plus' })).toEqual([
      { field: 'experience', key: VALIDATION_KEYS.invalid, params: { name: 'experience' } },
    ]);
    expect(errorsOf(reportInputSchema, { serviceId: 's1', reason: 'spam' })).toEqual([
      { field: 'reason', key: VALIDATION_KEYS.invalid, params: { name: 'reason' } },
    ]);
  });
  it('an unknown field gives validation.unknown_field per field', () => {
    expect(
      errorsOf(credentialsSchema, { email: 'a@b.co', password: 'x', isAdmin: true, x: 1 }),
    ).toEqual([
      { field: 'isAdmin', key: VALIDATION_KEYS.unknownField, params: { name: 'isAdmin' } },
      { field: 'x', key: VALIDATION_KEYS.unknownField, params: { name: 'x' } },
    ]);
  });
  it('a country code must be two letters', () => {
    expect(countryCodeSchema.parse(' gb ')).toBe('GB');
    expect(countryCodeSchema.safeParse('GBR').success).toBe(false);
    expect(errorsOf(z.object({ countryCode: countryCodeSchema }), { countryCode: 'P1' })).toEqual([
      { field: 'countryCode', key: VALIDATION_KEYS.invalid, params: { name: 'countryCode' } },
    ]);
  });
  it('a campaign needs subject and content and known statuses and categories', () => {
    const errors = errorsOf(campaignInputSchema, {
      subject: '',
      content: 'x',
      statuses: ['archived'],
      categories: ['auto'],
    });
    expect(errors.map((e) => [e.field, e.key])).toEqual([
      ['subject', VALIDATION_KEYS.required],
      ['statuses.0', VALIDATION_KEYS.invalid],
    ]);
    expect(campaignInputSchema.parse({ subject: 'Новини', content: 'Текст' })).toEqual({
      subject: 'Новини',
      content: 'Текст',
      statuses: [],
      categories: [],
      sendToSelf: false,
    });
  });
  it('a push subscription must be an http(s) endpoint with keys', () => {
    const valid = { endpoint: 'https://push.example.com/abc', keys: { p256dh: 'k', auth: 'a' } };
    expect(pushSubscriptionSchema.safeParse(valid).success).toBe(true);
    expect(
      pushSubscriptionSchema.safeParse({ ...valid, endpoint: 'javascript:alert(1)' }).success,
    ).toBe(false);
    expect(pushSubscriptionSchema.safeParse({ endpoint: valid.endpoint }).success).toBe(false);
  });
  it('a message set on the schema wins over the issue code', () => {
    const [issue] = z
      .string()
      .refine(() => false, { error: VALIDATION_KEYS.wrongAddress })
      .safeParse('x').error!.issues;
    expect(issueToFieldError(issue!)).toEqual([
      { field: '', key: VALIDATION_KEYS.wrongAddress, params: { name: '' } },
    ]);
  });
});
