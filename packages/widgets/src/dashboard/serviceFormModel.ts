import type { Api } from '@poruch/core/lite';
import {
  registrationSchema,
  requireAddressConfirmation,
  serviceInputSchema,
  VALIDATION_KEYS,
  zodErrorToFieldErrors,
  type AddressDetails,
  type CategoryKey,
  type DuplicateAnswers,
  type FieldError,
  type GeocodeResult,
  type GeocodeSuggestions,
  type LocaleCode,
  type Registration,
  type ServiceInput,
  type Service,
} from '@poruch/core';

/**
 * The service form's model, framework-free: its values, their defaults, the validation with the
 * server's schema, the address check's rules, and the registration form that composes it with the
 * account fields. The dashboard widget's form (createServiceForm) and the site's forms (add, edit,
 * registration) hold their state their own way and share this.
 */

/** What the service form holds while the user types: every field of a service its owner sets. */
export interface ServiceFormValues {
  name: string;
  countryCode: string;
  /** A category key, or '' for none. */
  category: string;
  address: string;
  /** The validated address: the geocoder's match, or the option the user picked. */
  addressDetails: AddressDetails | null;
  website: string;
  phone: string;
  descriptionUa: string;
  descriptionOther: string;
  isOnline: boolean;
  showOnMap: boolean;
  /** The owner's original place in Ukraine. */
  originalPlace: string;
  marketingConsent: boolean;
  /** The confirmation checkbox: "shown on the map at this address". */
  addressConfirmed: boolean;
  /** Adding a service: what the partner said about its lookalikes (duplicatesModel). */
  duplicates?: DuplicateAnswers;
}

export const emptyServiceValues = (): ServiceFormValues => ({
  name: '',
  countryCode: '',
  category: '',
  address: '',
  addressDetails: null,
  website: '',
  phone: '',
  descriptionUa: '',
  descriptionOther: '',
  isOnline: false,
  showOnMap: true,
  originalPlace: '',
  marketingConsent: false,
  addressConfirmed: false,
});

/** The form values of a stored service (edit form); its validated address counts as confirmed. */
export const serviceToValues = (s: Service): ServiceFormValues => ({
  name: s.name,
  countryCode: s.countryCode,
  category: s.category ?? '',
  address: s.address,
  addressDetails: s.addressDetails,
  website: s.website,
  phone: s.phone,
  descriptionUa: s.descriptionUa,
  descriptionOther: s.descriptionOther,
  isOnline: s.isOnline,
  showOnMap: s.showOnMap,
  originalPlace: s.originalPlace,
  marketingConsent: s.marketingConsent,
  addressConfirmed: !!s.addressDetails,
});

/** The body the API takes (`serviceInputSchema`), before validation: an empty category is none. */
export const valuesToServiceInput = (v: ServiceFormValues): ServiceInput => ({
  ...v,
  category: (v.category || null) as CategoryKey | null,
});

/** True when the service will be placed on the map, so its address must be validated. */
export const needsMapAddress = (v: Pick<ServiceFormValues, 'isOnline' | 'showOnMap'>): boolean =>
  v.showOnMap && !v.isOnline;

/** A field's path in the form: `service.address` in registration, `address` elsewhere. */
const at = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

/** The message under an empty address: there is nothing to look up. */
export const addressRequired = (prefix = ''): FieldError => ({
  field: at(prefix, 'address'),
  key: VALIDATION_KEYS.required,
  params: { name: 'address' },
});

/**
 * What the address check (`GET geocode`) means for the form: one match is the validated address;
 * no match, or several to choose from, is a message on the address field.
 */
export function geocodeOutcome(
  result: GeocodeResult,
  prefix = '',
): { addressDetails: AddressDetails | null; errors: FieldError[] } {
  if (result.status === 'ok' && result.candidates[0])
    return { addressDetails: result.candidates[0], errors: [] };
  const key =
    result.status === 'ambiguous' ? VALIDATION_KEYS.ambiguousAddress : VALIDATION_KEYS.wrongAddress;
  return { addressDetails: null, errors: [{ field: at(prefix, 'address'), key }] };
}

/** How long a pause in typing the address is before suggestions are asked for. */
export const SUGGEST_DELAY_MS = 300;

/** The part of an address being typed: after its last comma. */
const lastPart = (text: string) => text.slice(text.search(/[^,;\n]*$/));

/** True when the part being typed has a word of two letters or more to suggest places for. */
export const wantsSuggestions = (text: string): boolean => /\p{L}{2}/u.test(lastPart(text));

/** Asks `GET geocode/suggest` for places matching a partly typed address. */
export async function fetchAddressSuggestions(
  api: Pick<Api, 'get'>,
  address: string,
  country: string,
  signal: AbortSignal,
): Promise<AddressDetails[]> {
  const { suggestions } = await api.get<GeocodeSuggestions>('geocode/suggest', {
    query: { address: address.trim(), country: country || undefined },
    signal,
    // A failed suggestion is not worth a message: the field stays as typed, "Find" still works.
    silent: true,
  });
  return suggestions;
}

const fold = (s: string) => s.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

/**
 * The address text once a suggestion is taken. A full address from a street-level geocoder
 * replaces the text; a town from the offline gazetteer replaces only what was typed of its name
 * (the last words of the last part, or its last word), keeping the street before it:
 * "Hauptstraße 1, Neus" → "Hauptstraße 1, Neustadt, Rheinland-Pfalz, DE".
 */
export function suggestionAddress(typed: string, candidate: AddressDetails): string {
  if (candidate.source !== 'gazetteer') return candidate.displayName;
  const part = lastPart(typed);
  const words = part.trim().split(/\s+/).filter(Boolean);
  const city = fold(candidate.city);
  let keep = Math.max(0, words.length - 1);
  for (let start = 0; start < words.length; start++) {
    if (city.startsWith(fold(words.slice(start).join(' ')))) {
      keep = start;
      break;
    }
  }
  const before = typed.slice(0, typed.length - part.length).trim();
  const rest = words.slice(0, keep).join(' ');
  const place = [rest, candidate.displayName].filter(Boolean);
  return before ? `${before} ${place.join(' ')}` : place.join(', ');
}

/**
 * Before a submit: the address errors of a service that goes on the map without a validated
 * address. While the options of an ambiguous address are shown, one must be picked; else the
 * address is checked now (`check` resolves to its errors), and a place found now must still be
 * confirmed.
 */
export async function addressErrorsBeforeSubmit(
  values: ServiceFormValues,
  {
    ambiguous,
    check,
    prefix = '',
  }: { ambiguous: boolean; check(): Promise<FieldError[]>; prefix?: string },
): Promise<FieldError[]> {
  if (!needsMapAddress(values) || values.addressDetails) return [];
  if (ambiguous) return [{ field: at(prefix, 'address'), key: VALIDATION_KEYS.ambiguousAddress }];
  const errors = await check();
  if (errors.length) return errors;
  return [{ field: at(prefix, 'addressConfirmed'), key: VALIDATION_KEYS.mustAgree }];
}

/** A validation's answer: the body to send, or the messages to show (none of both at once). */
export type Checked<T> = { data: T; errors: [] } | { data: null; errors: FieldError[] };

type Parsed<T> =
  | { success: true; data: T }
  | { success: false; error: Parameters<typeof zodErrorToFieldErrors>[0] };

/**
 * The schema's messages, then `extra` (the address check's, a rule said early), one per field
 * and rule. The country code schema reads an empty choice as a wrong value; the user only left
 * the picker empty, so that says it is required.
 */
function checked<T>(
  parsed: Parsed<T>,
  extra: FieldError[],
  service: ServiceFormValues,
  prefix: string,
): Checked<T> {
  let errors = [...(parsed.success ? [] : zodErrorToFieldErrors(parsed.error)), ...extra];
  if (parsed.success && !errors.length) return { data: parsed.data, errors: [] };
  if (!service.countryCode) {
    const field = at(prefix, 'countryCode');
    errors = [
      ...errors.filter((e) => e.field !== field),
      { field, key: VALIDATION_KEYS.required, params: { name: 'countryCode' } },
    ];
  }
  const seen = new Set<string>();
  return {
    data: null,
    errors: errors.filter((e) => {
      const k = `${e.field}|${e.key}`;
      return !seen.has(k) && !!seen.add(k);
    }),
  };
}

/** The rules `POST my/services` and `PUT my/services/:id` apply. */
const serviceRules = requireAddressConfirmation(serviceInputSchema);

/** Validates a service form with the server's rules; `addressErrors` from the address check. */
export const validateService = (
  values: ServiceFormValues,
  addressErrors: FieldError[] = [],
): Checked<ServiceInput> =>
  checked(serviceRules.safeParse(valuesToServiceInput(values)), addressErrors, values, '');

/** The account part of the registration form. */
export interface AccountFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
  confirmPassword: string;
}

/** The registration form: the account, its first service (fields under `service.`) and the terms. */
export interface RegistrationFormValues {
  account: AccountFormValues;
  service: ServiceFormValues;
  termsAgreed: boolean;
}

export const emptyRegistrationValues = (): RegistrationFormValues => ({
  account: { firstName: '', lastName: '', email: '', phone: '', password: '', confirmPassword: '' },
  service: emptyServiceValues(),
  termsAgreed: false,
});

/**
 * Validates the registration form as `POST auth/register` will: the account in the interface
 * language, with the service's marketing consent, and the service. `addressErrors` from the
 * address check of the `service` prefix.
 */
export function validateRegistration(
  values: RegistrationFormValues,
  locale: LocaleCode,
  addressErrors: FieldError[] = [],
): Checked<Registration> {
  const { account, service, termsAgreed } = values;
  const parsed = registrationSchema.safeParse({
    account: { ...account, locale, marketingConsent: service.marketingConsent },
    service: valuesToServiceInput(service),
    termsAgreed,
  });
  const extra = [...addressErrors];
  // The schema checks the match only once every field is valid; say it at once. An empty
  // confirmation is the schema's "required", not a mismatch.
  if (!parsed.success && account.confirmPassword && account.confirmPassword !== account.password)
    extra.push({ field: 'account.confirmPassword', key: VALIDATION_KEYS.passwordsMustMatch });
  return checked(parsed, extra, service, 'service');
}
