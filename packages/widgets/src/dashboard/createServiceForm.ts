import {
  requireAddressConfirmation,
  serviceInputSchema,
  VALIDATION_KEYS,
  zodErrorToFieldErrors,
  type AddressDetails,
  type FieldError,
  type GeocodeResult,
  type Service,
} from '@poruch/core';
import { createStore, type Store } from '../createStore.js';
import type { WidgetApi } from '../shared/createWidgetApi.js';
import { isAbort, isWidgetError } from '../shared/WidgetError.js';
import { serverFieldErrors } from '../report/createReportForm.js';

/** The add-service form's values, as typed. */
export interface ServiceFormValues {
  name: string;
  countryCode: string;
  category: string;
  address: string;
  website: string;
  phone: string;
  descriptionUa: string;
  descriptionOther: string;
  isOnline: boolean;
  showOnMap: boolean;
  addressConfirmed: boolean;
}

export interface ServiceFormState {
  values: ServiceFormValues;
  /** The address check: not run, running, or its answer. */
  geocode: 'idle' | 'checking' | GeocodeResult['status'];
  candidates: AddressDetails[];
  /** The chosen candidate: the validated address sent as `addressDetails`. */
  addressDetails: AddressDetails | null;
  fieldErrors: FieldError[];
  error: unknown;
  sending: boolean;
}

const EMPTY: ServiceFormValues = {
  name: '',
  countryCode: '',
  category: '',
  address: '',
  website: '',
  phone: '',
  descriptionUa: '',
  descriptionOther: '',
  isOnline: false,
  showOnMap: true,
  addressConfirmed: false,
};

/** The schema `POST my/services` applies: core's serviceInputSchema with the address confirmation. */
const schema = requireAddressConfirmation(serviceInputSchema);

/**
 * The add-service form: validation with the server's schema, the address check through
 * `GET geocode` (wrong address, ambiguous with options to pick, one match), the confirmation
 * checkbox, and `POST my/services`.
 */
export function createServiceForm(api: WidgetApi) {
  const store: Store<ServiceFormState> = createStore<ServiceFormState>({
    values: { ...EMPTY },
    geocode: 'idle',
    candidates: [],
    addressDetails: null,
    fieldErrors: [],
    error: null,
    sending: false,
  });
  const controller = new AbortController();
  const { signal } = controller;

  const set = (patch: Partial<ServiceFormValues>) =>
    store.setState((s) => {
      const addressChanged = 'address' in patch || 'countryCode' in patch;
      return {
        values: { ...s.values, ...patch },
        fieldErrors: s.fieldErrors.filter((e) => !Object.keys(patch).includes(e.field)),
        // A new address must be checked and confirmed again.
        ...(addressChanged
          ? { geocode: 'idle' as const, candidates: [], addressDetails: null }
          : {}),
      };
    });

  const addressError = (key: string): FieldError => ({
    field: 'address',
    key,
    params: { name: 'address' },
  });

  return {
    store,
    set,
    async checkAddress() {
      const { address, countryCode } = store.getState().values;
      if (!address.trim()) {
        store.setState({ fieldErrors: [addressError(VALIDATION_KEYS.required)] });
        return;
      }
      store.setState({ geocode: 'checking', error: null });
      try {
        const result = await api.get<GeocodeResult>('geocode', {
          query: { address: address.trim(), country: countryCode || undefined },
          signal,
        });
        store.setState({
          geocode: result.status,
          candidates: result.candidates,
          addressDetails: result.status === 'ok' ? (result.candidates[0] ?? null) : null,
          fieldErrors:
            result.status === 'wrong_address'
              ? [addressError(VALIDATION_KEYS.wrongAddress)]
              : result.status === 'ambiguous'
                ? [addressError(VALIDATION_KEYS.ambiguousAddress)]
                : [],
        });
      } catch (e) {
        if (!signal.aborted && !isAbort(e)) store.setState({ geocode: 'idle', error: e });
      }
    },
    pick(candidate: AddressDetails) {
      store.setState((s) => ({
        addressDetails: candidate,
        geocode: 'ok',
        fieldErrors: s.fieldErrors.filter((e) => e.field !== 'address'),
      }));
    },
    /** Validates and posts; resolves to the created service, or null. */
    async submit(): Promise<Service | null> {
      const { values, addressDetails, sending } = store.getState();
      if (sending) return null;
      const input = {
        ...values,
        category: values.category || null,
        addressDetails,
        ...(values.countryCode ? {} : { countryCode: undefined }),
      };
      const parsed = schema.safeParse(input);
      const errors = parsed.success ? [] : zodErrorToFieldErrors(parsed.error);
      const needsAddress = !values.isOnline && values.showOnMap;
      if (needsAddress && !addressDetails) {
        errors.push(
          addressError(
            store.getState().geocode === 'ambiguous'
              ? VALIDATION_KEYS.ambiguousAddress
              : VALIDATION_KEYS.wrongAddress,
          ),
        );
      }
      if (!parsed.success || errors.length) {
        store.setState({ fieldErrors: errors, error: null });
        return null;
      }
      store.setState({ sending: true, error: null, fieldErrors: [] });
      try {
        const service = await api.send<Service>('POST', 'my/services', parsed.data, { signal });
        store.setState({
          sending: false,
          values: { ...EMPTY },
          geocode: 'idle',
          candidates: [],
          addressDetails: null,
        });
        return service;
      } catch (e) {
        if (signal.aborted || isAbort(e)) return null;
        store.setState({
          sending: false,
          error: e,
          fieldErrors: isWidgetError(e) ? serverFieldErrors(e.body) : [],
        });
        return null;
      }
    },
    destroy: () => controller.abort(),
  };
}

export type ServiceForm = ReturnType<typeof createServiceForm>;
