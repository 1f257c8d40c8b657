import {
  reportInputSchema,
  VALIDATION_KEYS,
  zodErrorToFieldErrors,
  type FieldError,
  type ReportReason,
} from '@poruch/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type Api, isApiError } from '@poruch/core/lite';

export type ReportFormStatus = 'editing' | 'sending' | 'sent';

export interface ReportFormState {
  /** The chosen reason, or '' before the visitor picks one. */
  reason: ReportReason | '';
  description: string;
  status: ReportFormStatus;
  /** Broken rules, from core's reportInputSchema here or from the server's answer. */
  fieldErrors: FieldError[];
  /** The failure of the last send (an ApiError), or null. What was typed stays. */
  error: unknown;
  /** Id of the stored report once sent. */
  reportId: string | null;
}

export interface ReportForm {
  readonly store: StoreApi<ReportFormState>;
  setReason(reason: ReportReason): void;
  setDescription(description: string): void;
  /**
   * Validates with the server's own schema and posts the report anonymously. Resolves to the
   * report's id, or null when invalid or failed (the state says why).
   */
  submit(): Promise<string | null>;
  /** Empties the form for another report. */
  reset(): void;
  /** Aborts a send in flight. */
  destroy(): void;
}

export interface ReportFormOptions {
  /** The widget's API client (public: no cookies). */
  api: Api;
  /** The reported service. */
  serviceId: string;
}

const EMPTY = {
  reason: '',
  description: '',
  status: 'editing',
  fieldErrors: [],
  error: null,
  reportId: null,
} satisfies ReportFormState;

/**
 * The report form's logic: the three reasons, a description, validation with core's
 * `reportInputSchema` (the rules the server applies) and `POST reports` without credentials.
 */
export function createReportForm(options: ReportFormOptions): ReportForm {
  const store = createStore<ReportFormState>(() => ({ ...EMPTY }));
  let controller: AbortController | undefined;

  const clearField = (field: string) =>
    store.setState((s) => ({ fieldErrors: s.fieldErrors.filter((e) => e.field !== field) }));

  return {
    store,
    setReason(reason) {
      store.setState({ reason });
      clearField('reason');
    },
    setDescription(description) {
      store.setState({ description });
      clearField('description');
    },
    async submit() {
      const { reason, description, status } = store.getState();
      if (status === 'sending') return null;
      const parsed = reportInputSchema.safeParse({
        serviceId: options.serviceId,
        ...(reason ? { reason } : {}),
        description,
      });
      if (!parsed.success) {
        // A reason not chosen yet is a missing value, whatever the enum's issue says.
        const fieldErrors = zodErrorToFieldErrors(parsed.error).map((e) =>
          e.field === 'reason' && !reason
            ? { field: 'reason', key: VALIDATION_KEYS.required, params: { name: 'reason' } }
            : e,
        );
        store.setState({ fieldErrors, error: null });
        return null;
      }
      controller = new AbortController();
      store.setState({ status: 'sending', fieldErrors: [], error: null });
      try {
        const answer = await options.api.send<{ id: string }>('POST', 'reports', parsed.data, {
          signal: controller.signal,
        });
        store.setState({ status: 'sent', reportId: answer.id });
        return answer.id;
      } catch (e) {
        if (controller.signal.aborted) return null;
        const fields = isApiError(e) ? serverFieldErrors(e.body) : [];
        store.setState({ status: 'editing', error: e, fieldErrors: fields });
        return null;
      }
    },
    reset: () => store.setState({ ...EMPTY }),
    destroy: () => controller?.abort(),
  };
}

/** The `errors.fields` of an error body, as core's catalogue shapes them. */
export function serverFieldErrors(body: unknown): FieldError[] {
  const fields = (body as { errors?: { fields?: unknown } } | undefined)?.errors?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (f): f is FieldError =>
      typeof f === 'object' &&
      f !== null &&
      typeof f.field === 'string' &&
      typeof f.key === 'string',
  );
}
