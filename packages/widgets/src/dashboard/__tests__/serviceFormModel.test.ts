import { describe, expect, it } from 'vitest';
import {
  VALIDATION_KEYS,
  addressDetailsSchema,
  registrationSchema,
  type AddressDetails,
  type FieldError,
  type Service,
} from '@poruch/core';
import {
  addressErrorsBeforeSubmit,
  emptyRegistrationValues,
  emptyServiceValues,
  geocodeOutcome,
  serviceToValues,
  validateRegistration,
  validateService,
  valuesToServiceInput,
  type RegistrationFormValues,
  type ServiceFormValues,
} from '../serviceFormModel.js';

const warsaw: AddressDetails = addressDetailsSchema.parse({
  lat: 52.23,
  lng: 21.01,
  displayName: 'Warszawa, PL',
});

/** A service on the map in Warsaw, with its address validated and confirmed. */
const filled = (patch: Partial<ServiceFormValues> = {}): ServiceFormValues => ({
  ...emptyServiceValues(),
  name: 'Перукарня «Поруч»',
  countryCode: 'PL',
  address: 'ul. Marszałkowska 10, Warszawa',
  addressDetails: warsaw,
  addressConfirmed: true,
  ...patch,
});

const stored: Service = {
  id: 's1',
  ownerId: 'a1',
  name: 'Пекарня «Хліб»',
  countryCode: 'DE',
  category: 'food',
  address: 'Berlin',
  addressDetails: { ...warsaw, displayName: 'Berlin, DE', countryCode: 'DE' },
  website: 'https://example.com',
  phone: '+49 30 123456',
  descriptionUa: 'Опис',
  descriptionOther: 'Description',
  isOnline: false,
  haveVacancy: false,
  showOnMap: true,
  isPartner: false,
  status: 'approved',
  declineReason: null,
  usedCount: 0,
  originalPlace: 'Харків',
  marketingConsent: true,
  confirmedAt: '2026-01-01T00:00:00Z',
  reconfirmMailedAt: null,
  confirmation: 'current',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const keysOf = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.key}`);

describe('service form values', () => {
  it('start empty, on the map, without consent or origin', () => {
    expect(emptyServiceValues()).toMatchObject({
      name: '',
      countryCode: '',
      category: '',
      addressDetails: null,
      isOnline: false,
      showOnMap: true,
      originalPlace: '',
      marketingConsent: false,
      addressConfirmed: false,
    });
    // A fresh object each time: one form's typing never shows in another.
    expect(emptyServiceValues()).not.toBe(emptyServiceValues());
  });

  it('load a stored service with its origin and consent, its validated address confirmed', () => {
    const values = serviceToValues(stored);
    expect(values.originalPlace).toBe('Харків');
    expect(values.marketingConsent).toBe(true);
    expect(values.addressConfirmed).toBe(true);
    expect(serviceToValues({ ...stored, category: null, addressDetails: null })).toMatchObject({
      category: '',
      addressConfirmed: false,
    });
  });

  it('give back the stored service as the body the API takes', () => {
    const { data, errors } = validateService(serviceToValues(stored));
    expect(errors).toEqual([]);
    expect(data).toEqual({
      name: stored.name,
      countryCode: 'DE',
      category: 'food',
      address: 'Berlin',
      addressDetails: stored.addressDetails,
      website: stored.website,
      phone: stored.phone,
      descriptionUa: 'Опис',
      descriptionOther: 'Description',
      isOnline: false,
      showOnMap: true,
      originalPlace: 'Харків',
      marketingConsent: true,
      addressConfirmed: true,
    });
  });

  it('send an empty category as none', () => {
    expect(valuesToServiceInput(filled()).category).toBeNull();
    expect(valuesToServiceInput(filled({ category: 'food' })).category).toBe('food');
  });
});

describe('validateService', () => {
  it('says an empty country is required, not a wrong value, and keeps the other messages', () => {
    const { data, errors } = validateService(emptyServiceValues());
    expect(data).toBeNull();
    expect(keysOf(errors)).toEqual([
      `name: ${VALIDATION_KEYS.required}`,
      // On the map by default: the address must be confirmed.
      `addressConfirmed: ${VALIDATION_KEYS.mustAgree}`,
      `countryCode: ${VALIDATION_KEYS.required}`,
    ]);
    expect(errors.find((e) => e.field === 'countryCode')?.params).toEqual({ name: 'countryCode' });
  });

  it('asks for the confirmation of an address on the map, and only there', () => {
    const unconfirmed = validateService(filled({ addressConfirmed: false }));
    expect(keysOf(unconfirmed.errors)).toEqual([`addressConfirmed: ${VALIDATION_KEYS.mustAgree}`]);
    expect(validateService(filled({ addressConfirmed: false, isOnline: true })).errors).toEqual([]);
    expect(validateService(filled({ addressConfirmed: false, showOnMap: false })).errors).toEqual(
      [],
    );
  });

  it('adds the address check’s messages once each', () => {
    const mustAgree = { field: 'addressConfirmed', key: VALIDATION_KEYS.mustAgree };
    const { data, errors } = validateService(filled({ addressConfirmed: false }), [mustAgree]);
    expect(data).toBeNull();
    expect(keysOf(errors)).toEqual([`addressConfirmed: ${VALIDATION_KEYS.mustAgree}`]);
    const wrong = { field: 'address', key: VALIDATION_KEYS.wrongAddress };
    expect(validateService(filled(), [wrong])).toEqual({ data: null, errors: [wrong] });
  });

  it('checks the origin in Ukraine like the server', () => {
    const { errors } = validateService(filled({ originalPlace: 'Київ\u0000' }));
    expect(keysOf(errors)).toEqual([`originalPlace: ${VALIDATION_KEYS.invalidCharacters}`]);
  });
});

describe('the address check', () => {
  it('keeps one match and names a wrong or an ambiguous address', () => {
    expect(geocodeOutcome({ status: 'ok', candidates: [warsaw] })).toEqual({
      addressDetails: warsaw,
      errors: [],
    });
    expect(geocodeOutcome({ status: 'wrong_address', candidates: [] }, 'service')).toEqual({
      addressDetails: null,
      errors: [{ field: 'service.address', key: VALIDATION_KEYS.wrongAddress }],
    });
    expect(geocodeOutcome({ status: 'ambiguous', candidates: [warsaw, warsaw] })).toEqual({
      addressDetails: null,
      errors: [{ field: 'address', key: VALIDATION_KEYS.ambiguousAddress }],
    });
  });

  it('before a submit asks nothing of a service off the map or with a validated address', async () => {
    const check = async (): Promise<FieldError[]> => {
      throw new Error('must not look the address up');
    };
    for (const values of [
      filled({ addressDetails: null, isOnline: true }),
      filled({ addressDetails: null, showOnMap: false }),
      filled(),
    ])
      expect(await addressErrorsBeforeSubmit(values, { ambiguous: false, check })).toEqual([]);
  });

  it('before a submit wants an option picked, a lookup that finds, then the confirmation', async () => {
    const unchecked = filled({ addressDetails: null, addressConfirmed: false });
    let lookups = 0;
    const found = async () => {
      lookups++;
      return [];
    };
    expect(
      await addressErrorsBeforeSubmit(unchecked, {
        ambiguous: true,
        check: found,
        prefix: 'service',
      }),
    ).toEqual([{ field: 'service.address', key: VALIDATION_KEYS.ambiguousAddress }]);
    expect(lookups).toBe(0);
    expect(await addressErrorsBeforeSubmit(unchecked, { ambiguous: false, check: found })).toEqual([
      { field: 'addressConfirmed', key: VALIDATION_KEYS.mustAgree },
    ]);
    expect(lookups).toBe(1);
    const wrong = [{ field: 'address', key: VALIDATION_KEYS.wrongAddress }];
    expect(
      await addressErrorsBeforeSubmit(unchecked, { ambiguous: false, check: async () => wrong }),
    ).toEqual(wrong);
  });
});

describe('registration: the account fields with the service form', () => {
  const complete = (): RegistrationFormValues => ({
    account: {
      firstName: 'Олена',
      lastName: 'Коваль',
      email: 'olena@poruch.test',
      phone: '',
      password: 'dobryi-den-42',
      confirmPassword: 'dobryi-den-42',
    },
    service: filled({ marketingConsent: true, originalPlace: 'Львів' }),
    termsAgreed: true,
  });

  it('starts with empty account fields, an empty service and the terms not agreed', () => {
    expect(emptyRegistrationValues()).toEqual({
      account: {
        firstName: '',
        lastName: '',
        email: '',
        phone: '',
        password: '',
        confirmPassword: '',
      },
      service: emptyServiceValues(),
      termsAgreed: false,
    });
  });

  it('sends the account in the interface language with the service’s marketing consent', () => {
    const { data, errors } = validateRegistration(complete(), 'en_GB');
    expect(errors).toEqual([]);
    expect(data?.account).toMatchObject({ locale: 'en_GB', marketingConsent: true });
    expect(data?.service).toMatchObject({ originalPlace: 'Львів', marketingConsent: true });
    // What the server parses again.
    expect(registrationSchema.safeParse(data).success).toBe(true);
  });

  it('puts the service’s messages under `service.` and says a password mismatch at once', () => {
    const values = emptyRegistrationValues();
    values.account.password = 'dobryi-den-42';
    values.account.confirmPassword = 'other';
    const { data, errors } = validateRegistration(values, 'ua', [
      { field: 'service.address', key: VALIDATION_KEYS.required, params: { name: 'address' } },
    ]);
    expect(data).toBeNull();
    expect(keysOf(errors)).toEqual([
      `account.firstName: ${VALIDATION_KEYS.required}`,
      `account.email: ${VALIDATION_KEYS.required}`,
      `service.name: ${VALIDATION_KEYS.required}`,
      `service.addressConfirmed: ${VALIDATION_KEYS.mustAgree}`,
      `termsAgreed: ${VALIDATION_KEYS.mustAgree}`,
      `service.address: ${VALIDATION_KEYS.required}`,
      `account.confirmPassword: ${VALIDATION_KEYS.passwordsMustMatch}`,
      `service.countryCode: ${VALIDATION_KEYS.required}`,
    ]);
  });
});
