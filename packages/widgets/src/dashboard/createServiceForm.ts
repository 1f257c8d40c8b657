import type {
  FieldError,
  GeocodeResult,
  AddressDetails,
  DuplicateAnswer,
  DuplicateCandidate,
  Service,
} from '@poruch/core';
import { createStore } from 'zustand/vanilla';
import { type Api, isAbort, isApiError } from '@poruch/core/lite';
import { serverFieldErrors } from '../report/createReportForm.js';
import {
  addressErrorsBeforeSubmit,
  addressRequired,
  emptyServiceValues,
  fetchAddressSuggestions,
  geocodeOutcome,
  suggestionAddress,
  validateService,
  type ServiceFormValues,
} from './serviceFormModel.js';
import { duplicateProbe, fetchDuplicates, keepAnswers, withAnswer } from './duplicatesModel.js';

export interface ServiceFormState {
  /** The values as typed, with the validated address (serviceFormModel). */
  values: ServiceFormValues;
  /** The address check: not run, running, or its answer. */
  geocode: 'idle' | 'checking' | GeocodeResult['status'];
  candidates: AddressDetails[];
  /** Approved services that look like this one (duplicatesModel). */
  lookalikes: DuplicateCandidate[];
  fieldErrors: FieldError[];
  error: unknown;
  sending: boolean;
}

/**
 * The add-service form of the dashboard widget over the service form's model: validation with
 * the server's schema, the address check through `GET geocode` (wrong address, ambiguous with
 * options to pick, one match), the confirmation checkbox, and `POST my/services`.
 */
export function createServiceForm(api: Api) {
  const store = createStore<ServiceFormState>(() => ({
    values: emptyServiceValues(),
    geocode: 'idle',
    candidates: [],
    lookalikes: [],
    fieldErrors: [],
    error: null,
    sending: false,
  }));
  const controller = new AbortController();
  const { signal } = controller;

  const set = (patch: Partial<ServiceFormValues>) =>
    store.setState((s) => {
      const addressChanged = 'address' in patch || 'countryCode' in patch;
      return {
        // A new address must be checked and confirmed again.
        values: {
          ...s.values,
          ...patch,
          ...(addressChanged ? { addressDetails: null, addressConfirmed: false } : {}),
        },
        fieldErrors: s.fieldErrors.filter((e) => !Object.keys(patch).includes(e.field)),
        ...(addressChanged ? { geocode: 'idle' as const, candidates: [] } : {}),
      };
    });

  /** Looks the typed address up; resolves to the messages it shows (none when found). */
  const checkAddress = async (): Promise<FieldError[]> => {
    const { address, countryCode } = store.getState().values;
    if (!address.trim()) {
      const errors = [addressRequired()];
      store.setState({ fieldErrors: errors });
      return errors;
    }
    store.setState({ geocode: 'checking', error: null });
    try {
      const result = await api.get<GeocodeResult>('geocode', {
        query: { address: address.trim(), country: countryCode || undefined },
        signal,
      });
      const { addressDetails, errors } = geocodeOutcome(result);
      store.setState((s) => ({
        geocode: result.status,
        candidates: result.candidates,
        values: {
          ...s.values,
          addressDetails,
          addressConfirmed: addressDetails ? s.values.addressConfirmed : false,
        },
        fieldErrors: errors,
      }));
      return errors;
    } catch (e) {
      if (!signal.aborted && !isAbort(e)) store.setState({ geocode: 'idle', error: e });
      return [];
    }
  };

  /** Asks for the lookalikes of the service as typed; the answers about others are forgotten. */
  const checkDuplicates = async (requestSignal: AbortSignal) => {
    const probe = duplicateProbe(store.getState().values);
    let lookalikes: DuplicateCandidate[] = [];
    if (probe) {
      try {
        lookalikes = await fetchDuplicates(api, probe, requestSignal);
      } catch {
        // A failed check blocks nothing: the review still sees the duplicates.
        return;
      }
    }
    if (requestSignal.aborted) return;
    store.setState((s) => ({
      lookalikes,
      values: { ...s.values, duplicates: keepAnswers(s.values.duplicates, lookalikes) },
    }));
  };

  return {
    store,
    set,
    checkAddress,
    checkDuplicates,
    /** The partner's answer about one lookalike. */
    answer(id: string, answer: DuplicateAnswer) {
      store.setState((s) => ({
        values: { ...s.values, duplicates: withAnswer(s.values.duplicates, id, answer) },
      }));
    },
    /** Places for the address as typed so far (the address combobox). */
    suggest: (text: string, requestSignal: AbortSignal) =>
      fetchAddressSuggestions(api, text, store.getState().values.countryCode, requestSignal),
    /** Takes a suggestion: the address text and the validated address at once, to be confirmed. */
    pickSuggestion(candidate: AddressDetails) {
      store.setState((s) => ({
        values: {
          ...s.values,
          address: suggestionAddress(s.values.address, candidate),
          addressDetails: candidate,
          addressConfirmed: false,
        },
        geocode: 'ok',
        candidates: [],
        fieldErrors: s.fieldErrors.filter((e) => e.field !== 'address'),
      }));
    },
    pick(candidate: AddressDetails) {
      store.setState((s) => ({
        values: { ...s.values, addressDetails: candidate },
        geocode: 'ok',
        fieldErrors: s.fieldErrors.filter((e) => e.field !== 'address'),
      }));
    },
    /** Validates and posts; resolves to the created service, or null. */
    async submit(): Promise<Service | null> {
      const before = store.getState();
      if (before.sending) return null;
      const addressErrors = await addressErrorsBeforeSubmit(before.values, {
        ambiguous: before.geocode === 'ambiguous',
        check: checkAddress,
      });
      if (signal.aborted) return null;
      const checked = validateService(store.getState().values, addressErrors);
      if (!checked.data) {
        store.setState({ fieldErrors: checked.errors, error: null });
        return null;
      }
      store.setState({ sending: true, error: null, fieldErrors: [] });
      try {
        const service = await api.send<Service>('POST', 'my/services', checked.data, { signal });
        store.setState({
          sending: false,
          values: emptyServiceValues(),
          geocode: 'idle',
          candidates: [],
          lookalikes: [],
        });
        return service;
      } catch (e) {
        if (signal.aborted || isAbort(e)) return null;
        store.setState({
          sending: false,
          error: e,
          fieldErrors: isApiError(e) ? serverFieldErrors(e.body) : [],
        });
        return null;
      }
    },
    destroy: () => controller.abort(),
  };
}

export type ServiceForm = ReturnType<typeof createServiceForm>;
