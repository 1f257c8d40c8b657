import { useCallback, useRef, useState } from 'react';
import {
  addressErrorsBeforeSubmit,
  addressRequired,
  fetchAddressSuggestions,
  geocodeOutcome,
  suggestionAddress,
  type ServiceFormValues,
} from '@poruch/widgets';
import {
  type AddressDetails,
  type ApiClient,
  type FieldError,
  type GeocodeResult,
} from '@poruch/core';
import type { FormController } from './useForm.js';

/** Where the address validation of a service form stands. */
export type AddressCheckStatus = 'idle' | 'checking' | 'ok' | 'wrong' | 'ambiguous' | 'failed';

export interface AddressCheck {
  readonly status: AddressCheckStatus;
  /** The options of an ambiguous address; they stay after one is picked. */
  readonly candidates: readonly AddressDetails[];
  /** Asks the geocoder about the typed address; resolves to the errors to show (none when found). */
  check(): Promise<FieldError[]>;
  /** Takes one option of an ambiguous address. */
  pick(candidate: AddressDetails): void;
  /** Places for the address as typed so far (the address combobox). */
  suggest(text: string, signal: AbortSignal): Promise<AddressDetails[]>;
  /** Takes a suggestion: the address text and the validated address at once, to be confirmed. */
  pickSuggestion(candidate: AddressDetails): void;
  /** Forgets the validation: the address text changed. */
  invalidate(): void;
  /**
   * Before a submit: the address errors (wrong, ambiguous, not confirmed) when the service goes on
   * the map and its address is missing or not validated (asking the geocoder when it has not been
   * asked yet).
   */
  ensure(): Promise<FieldError[]>;
}

/**
 * The address validation flow of the service form over `GET geocode`: a wrong address, an
 * ambiguous one where the user picks an option, and then the confirmation checkbox
 * "shown on the map at this address".
 *
 * @param prefix the service's path in the form (`service` in registration, '' elsewhere).
 */
export function useAddressCheck(
  api: ApiClient,
  form: FormController<object>,
  prefix: string,
): AddressCheck {
  const [status, setStatus] = useState<AddressCheckStatus>(() =>
    form.get(p(prefix, 'addressDetails')) ? 'ok' : 'idle',
  );
  const [candidates, setCandidates] = useState<readonly AddressDetails[]>([]);
  const formRef = useRef(form);
  formRef.current = form;
  const path = (name: string) => p(prefix, name);

  const check = useCallback(async (): Promise<FieldError[]> => {
    const f = formRef.current;
    const address = String(f.get(path('address')) ?? '').trim();
    const country = String(f.get(path('countryCode')) ?? '');
    if (!address) {
      setStatus('idle');
      return [addressRequired(prefix)];
    }
    setStatus('checking');
    setCandidates([]);
    try {
      const result = await api.get<GeocodeResult>('geocode', {
        query: { address, ...(country ? { country } : {}) },
      });
      const { addressDetails, errors } = geocodeOutcome(result, prefix);
      f.set(path('addressDetails'), addressDetails);
      if (addressDetails) {
        setStatus('ok');
        return [];
      }
      f.set(path('addressConfirmed'), false);
      if (result.status === 'ambiguous') {
        setCandidates(result.candidates);
        setStatus('ambiguous');
      } else setStatus('wrong');
      return errors;
    } catch {
      // The client has shown the error toast; the form stays as typed.
      setStatus('failed');
      return [];
    }
  }, [api, prefix]);

  const pick = useCallback(
    (candidate: AddressDetails) => {
      formRef.current.set(path('addressDetails'), candidate);
      formRef.current.clearErrors(path('address'));
      // The options stay on screen, so the user can change the choice.
      setStatus('ok');
    },
    [prefix],
  );

  const suggest = useCallback(
    (text: string, signal: AbortSignal) =>
      fetchAddressSuggestions(
        api,
        text,
        String(formRef.current.get(path('countryCode')) ?? ''),
        signal,
      ),
    [api, prefix],
  );

  const pickSuggestion = useCallback(
    (candidate: AddressDetails) => {
      const f = formRef.current;
      f.set(path('address'), suggestionAddress(String(f.get(path('address')) ?? ''), candidate));
      f.set(path('addressDetails'), candidate);
      f.set(path('addressConfirmed'), false);
      f.clearErrors(path('address'));
      setCandidates([]);
      setStatus('ok');
    },
    [prefix],
  );

  const invalidate = useCallback(() => {
    const f = formRef.current;
    if (f.get(path('addressDetails'))) f.set(path('addressDetails'), null);
    if (f.get(path('addressConfirmed'))) f.set(path('addressConfirmed'), false);
    setStatus('idle');
    setCandidates([]);
  }, [prefix]);

  const ensure = useCallback(async (): Promise<FieldError[]> => {
    const f = formRef.current;
    const v = (prefix ? f.get(prefix) : f.values) as ServiceFormValues;
    return addressErrorsBeforeSubmit(v, { ambiguous: status === 'ambiguous', check, prefix });
  }, [check, status, prefix]);

  return { status, candidates, check, pick, suggest, pickSuggestion, invalidate, ensure };
}

const p = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);
