import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  isApiError,
  translateFieldError,
  zodErrorToFieldErrors,
  type FieldError,
  type Translate,
} from '@poruch/core';
import { markShownByForm } from '../app/services.js';
import { fieldId, getPath, setPath } from './paths.js';

/** What `useForm` needs of a zod schema: its safe parse. */
export interface ParseableSchema<T> {
  safeParse(
    input: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: Parameters<typeof zodErrorToFieldErrors>[0] };
}

/** Props a field component takes from the form: id, value, change handler and messages. */
export interface BoundField<V> {
  id: string;
  value: V;
  onChange: (value: V) => void;
  errors: string[];
}

export interface FormController<V> {
  readonly id: string;
  readonly values: V;
  /** Broken rules, untranslated, so they follow a language change. */
  readonly errors: readonly FieldError[];
  readonly submitting: boolean;
  set(path: string, value: unknown): void;
  /** Replaces every value (loading a record into an edit form); clears the errors. */
  reset(values: V): void;
  get<T = unknown>(path: string): T;
  /** Translated messages of one field (and of its nested fields). */
  errorsFor(path: string): string[];
  /** Binds a field: `<TextField {...form.bind('account.email')} label=… />`. */
  bind<T = string>(path: string): BoundField<T>;
  /** Binds a checkbox: `<CheckboxField {...form.bindCheck('termsAgreed')} label=… />`. */
  bindCheck(path: string): {
    id: string;
    checked: boolean;
    onChange: (v: boolean) => void;
    errors: string[];
  };
  /** Forgets the messages of one field. */
  clearErrors(path: string): void;
  /** Sets errors by hand (a rule that is not in the schema) and focuses the first field. */
  setErrors(errors: FieldError[]): void;
  /**
   * Parses `input` (the values by default) with a schema shared with the server. On failure
   * the validation messages show under their fields, the first one gets the focus, and null
   * is returned.
   */
  validate<T>(schema: ParseableSchema<T>, input?: unknown, prefix?: string): T | null;
  /**
   * Runs a submit: marks the form busy, and when the call fails with validation errors shows
   * them under their fields (and no error toast). Returns the call's result, or undefined when it failed; nothing
   * the user typed is cleared.
   */
  run<R>(call: () => Promise<R>, options?: RunOptions): Promise<R | undefined>;
}

export interface RunOptions {
  /** Prefix of the server's field paths in this form (`service` for `name` → `service.name`). */
  prefix?: string;
  /**
   * Extra field errors for a failure (e.g. `email_is_used` on the e-mail field), or `'shown'`
   * when the screen showed the failure itself (a notice). A failure the form shows, in either
   * way or as the server's field errors, gets no error toast as well.
   */
  onError?: (error: unknown) => FieldError[] | 'shown' | void;
}

const withPrefix = (errors: FieldError[], prefix?: string) =>
  prefix ? errors.map((e) => ({ ...e, field: e.field ? `${prefix}.${e.field}` : prefix })) : errors;

/**
 * The state of one form: nested values addressed by dotted paths, the broken rules of the
 * last validation or of the server's answer, and the focus on the first broken field.
 */
export function useForm<V extends object>(
  formId: string,
  initial: V,
  t: Translate,
): FormController<V> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrorList] = useState<FieldError[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [focusTick, setFocusTick] = useState(0);
  const errorsRef = useRef(errors);
  errorsRef.current = errors;
  const valuesRef = useRef(values);
  valuesRef.current = values;

  useEffect(() => {
    if (!focusTick) return;
    for (const e of errorsRef.current) {
      const el = document.getElementById(fieldId(formId, e.field));
      if (el) {
        el.focus();
        return;
      }
    }
  }, [focusTick, formId]);

  const setErrors = useCallback((list: FieldError[]) => {
    setErrorList(list);
    if (list.length) setFocusTick((n) => n + 1);
  }, []);

  const set = useCallback((path: string, value: unknown) => {
    setValues((v) => setPath(v, path, value));
    setErrorList((list) =>
      list.some((e) => e.field === path) ? list.filter((e) => e.field !== path) : list,
    );
  }, []);

  const errorsFor = useCallback(
    (path: string) =>
      errors
        .filter((e) => e.field === path || (path && e.field.startsWith(`${path}.`)))
        .map((e) => translateFieldError(t, e)),
    [errors, t],
  );

  return useMemo<FormController<V>>(
    () => ({
      id: formId,
      values,
      errors,
      submitting,
      set,
      reset(next) {
        setValues(next);
        setErrorList([]);
      },
      get: <T>(path: string) => getPath(values, path) as T,
      errorsFor,
      bind: <T>(path: string): BoundField<T> => ({
        id: fieldId(formId, path),
        value: getPath(values, path) as T,
        onChange: (value: T) => set(path, value),
        errors: errorsFor(path),
      }),
      bindCheck: (path: string) => ({
        id: fieldId(formId, path),
        checked: !!getPath(values, path),
        onChange: (value: boolean) => set(path, value),
        errors: errorsFor(path),
      }),
      setErrors,
      clearErrors: (path: string) =>
        setErrorList((list) =>
          list.some((e) => e.field === path) ? list.filter((e) => e.field !== path) : list,
        ),
      validate<T>(schema: ParseableSchema<T>, input: unknown = valuesRef.current, prefix?: string) {
        const parsed = schema.safeParse(input);
        if (parsed.success) {
          setErrorList([]);
          return parsed.data;
        }
        setErrors(withPrefix(zodErrorToFieldErrors(parsed.error), prefix));
        return null;
      },
      async run<R>(call: () => Promise<R>, options: RunOptions = {}) {
        setSubmitting(true);
        try {
          return await call();
        } catch (e) {
          const handled = options.onError?.(e);
          const extra = Array.isArray(handled) ? handled : [];
          const fields = isApiError(e) ? withPrefix(e.fields, options.prefix) : [];
          if (extra.length || fields.length) setErrors([...extra, ...fields]);
          if (handled === 'shown' || extra.length || fields.length) markShownByForm(e);
          return undefined;
        } finally {
          setSubmitting(false);
        }
      },
    }),
    [formId, values, errors, submitting, set, errorsFor, setErrors],
  );
}
