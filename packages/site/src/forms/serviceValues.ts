import {
  VALIDATION_KEYS,
  type AddressDetails,
  type CategoryKey,
  type FieldError,
  type Service,
  type ServiceInput,
} from '@poruch/core';

/** What the service form holds while the user types: every field of a service a partner sets. */
export interface ServiceValues {
  name: string;
  countryCode: string;
  /** A category key, or '' for none. */
  category: string;
  address: string;
  addressDetails: AddressDetails | null;
  website: string;
  phone: string;
  descriptionUa: string;
  descriptionOther: string;
  isOnline: boolean;
  showOnMap: boolean;
  originalPlace: string;
  marketingConsent: boolean;
  addressConfirmed: boolean;
}

export const emptyService = (): ServiceValues => ({
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
export const serviceToValues = (s: Service): ServiceValues => ({
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

/** The body the API takes (`serviceInputSchema`): an empty category is none. */
export const valuesToServiceInput = (v: ServiceValues): ServiceInput => ({
  ...v,
  category: (v.category || null) as CategoryKey | null,
  // A validated address belongs to the text it was found for; a country is never empty here.
  countryCode: v.countryCode,
});

/** True when the service will be placed on the map, so its address must be validated. */
export const needsMapAddress = (v: Pick<ServiceValues, 'isOnline' | 'showOnMap'>): boolean =>
  v.showOnMap && !v.isOnline;

/**
 * The country code schema reads an empty choice as a wrong value; the user only left the
 * picker empty, so say it is required.
 */
export function emptyCountryIsRequired(
  errors: FieldError[],
  values: Pick<ServiceValues, 'countryCode'>,
  prefix: string,
): FieldError[] {
  if (values.countryCode) return errors;
  const field = prefix ? `${prefix}.countryCode` : 'countryCode';
  return [
    ...errors.filter((e) => e.field !== field),
    { field, key: VALIDATION_KEYS.required, params: { name: 'countryCode' } },
  ];
}
