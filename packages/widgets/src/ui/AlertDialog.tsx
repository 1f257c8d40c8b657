import { useEffect, useId, useRef, useState } from 'react';
import {
  ALERT_FREQUENCIES,
  alertFilterLines,
  alertSchema,
  translateError,
  zodErrorToFieldErrors,
  type AlertFrequency,
  type AlertSearch,
  type FieldError,
  type LocaleCode,
  type Translate,
} from '@poruch/core';
import type { Api } from '@poruch/core/lite';
import { isApiError } from '@poruch/core/lite';
import { Field } from './Field.js';
import { messagesFor } from './fieldErrors.js';

/** How long the confirmation link of the mail is valid, in days (the server's rule). */
const CONFIRM_DAYS = 7;

export interface AlertDialogProps {
  /** An API client; the widgets' is public (no cookies), the site's its own. */
  api: Api;
  t: Translate;
  /** The language of the confirmation mail and of every alert mail after it. */
  locale: LocaleCode;
  /** The search the alert follows: shown read-only. */
  search: AlertSearch;
  onClose: () => void;
}

/**
 * "Notify me about new results": the e-mail, how often, and the search shown read-only. Sends
 * `POST alerts` (double opt-in), then says to check the inbox. The site's home page and the
 * `alerts` attribute of `<poruch-search>` and `<poruch-vacancies>` show this same dialog, loaded
 * when AlertButton opens it (its validation is not part of a widget's first load). Its layout is
 * ALERT_DIALOG_CSS (alertDialogStyles.ts), in the widget's stylesheet or the page's.
 */
export function AlertDialog({ api, t, locale, search, onClose }: AlertDialogProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [frequency, setFrequency] = useState<AlertFrequency>('daily');
  const [status, setStatus] = useState<'editing' | 'sending' | 'sent'>('editing');
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const [error, setError] = useState<unknown>(null);
  const first = useRef<HTMLInputElement>(null);
  const done = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    (status === 'sent' ? done : first).current?.focus();
  }, [status]);

  // A modal <dialog> sits in the top layer: over the whole page even from inside a widget,
  // whose host contains its layout; Escape cancels it.
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open && typeof d.showModal === 'function') d.showModal();
    return () => d?.close?.();
  }, []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (status === 'sending') return;
    const parsed = alertSchema.safeParse({ ...search, email, frequency, locale });
    if (!parsed.success) {
      setFieldErrors(zodErrorToFieldErrors(parsed.error));
      return;
    }
    setStatus('sending');
    setFieldErrors([]);
    setError(null);
    try {
      await api.send('POST', 'alerts', parsed.data, { silent: true });
      setStatus('sent');
    } catch (failure) {
      setStatus('editing');
      setFieldErrors(isApiError(failure) ? failure.fields : []);
      setError(failure);
    }
  };

  const title = t(`alerts.dialog_title_${search.kind}`);
  const failure = error ? translateError(error, t) : null;
  return (
    <dialog
      ref={dialog}
      className="alert-dialog"
      part="alert-dialog"
      aria-labelledby={`${id}-title`}
      data-testid="alert-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        // A click on the backdrop (the dialog itself, outside its box) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="alert-dialog__box">
        <div className="dialog__header">
          <h2 id={`${id}-title`} className="dialog__title">
            {status === 'sent' ? t('alerts.sent_title') : title}
          </h2>
          <button
            type="button"
            className="dialog__close"
            aria-label={t('common.close')}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        {status === 'sent' ? (
          <div className="alert-dialog__body" role="status">
            <p>{t('alerts.sent_text', { email: email.trim(), days: CONFIRM_DAYS })}</p>
            <div className="dialog__actions">
              <button ref={done} type="button" className="button" part="button" onClick={onClose}>
                {t('common.close')}
              </button>
            </div>
          </div>
        ) : (
          <form className="alert-dialog__body" noValidate onSubmit={(e) => void submit(e)}>
            <p className="alert-dialog__intro">{t('alerts.dialog_intro')}</p>
            <div className="alert-dialog__search">
              <p className="alert-dialog__label">{t('alerts.search_label')}</p>
              <ul data-testid="alert-filters">
                {alertFilterLines(search, t).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
            <Field label={t('field.email')} errors={messagesFor(t, fieldErrors, 'email')}>
              <input
                ref={first}
                type="email"
                name="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(e) => {
                  setEmail(e.currentTarget.value);
                  setFieldErrors((f) => f.filter((x) => x.field !== 'email'));
                }}
              />
            </Field>
            <fieldset className="alert-dialog__frequency">
              <legend>{t('alerts.frequency')}</legend>
              {ALERT_FREQUENCIES.map((f) => (
                <label key={f} className="alert-dialog__option">
                  <input
                    type="radio"
                    name={`${id}-frequency`}
                    value={f}
                    checked={frequency === f}
                    onChange={() => setFrequency(f)}
                  />
                  <span>{t(`alerts.frequency_${f}`)}</span>
                </label>
              ))}
            </fieldset>
            {failure && (
              <p className="field__error alert-dialog__error" role="alert">
                {failure.summary}
                {failure.detail ? ` ${failure.detail}` : ''}
              </p>
            )}
            <div className="dialog__actions">
              <button
                type="button"
                className="button button--secondary"
                part="button"
                onClick={onClose}
              >
                {t('common.cancel')}
              </button>
              <button
                type="submit"
                className="button"
                part="button submit"
                disabled={status === 'sending'}
              >
                {t('alerts.submit')}
              </button>
            </div>
          </form>
        )}
      </div>
    </dialog>
  );
}
