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
import { themeVar } from '../shared/theme.js';
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
 * `alerts` attribute of `<poruch-search>` and `<poruch-vacancies>` show this same dialog.
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
      <style>{ALERT_DIALOG_CSS}</style>
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

/**
 * "Notify me about new results" and the dialog it opens: the home page's and the widgets'
 * button. `search` is read when the dialog opens (the search at that moment).
 */
export function AlertButton({
  className,
  part,
  search,
  ...dialog
}: Omit<AlertDialogProps, 'onClose' | 'search'> & {
  className: string;
  part?: string;
  search: () => AlertSearch;
}) {
  const [open, setOpen] = useState<AlertSearch | null>(null);
  return (
    <>
      <button type="button" className={className} part={part} onClick={() => setOpen(search())}>
        {dialog.t('alerts.notify_button')}
      </button>
      {open && <AlertDialog {...dialog} search={open} onClose={() => setOpen(null)} />}
    </>
  );
}

/**
 * The dialog's own layout, rendered with it (in a widget's shadow root and in the site's page
 * alike; only `.alert-dialog*` selectors): a mask over the page and a box that fits 375 px. Inside
 * a widget (`.poruch-root`) it also draws its fields and buttons, whatever the widget's own
 * styles say about forms (the search widget lays its form out in a row).
 */
const ALERT_DIALOG_CSS = /* css */ `
.alert-dialog { box-sizing: border-box; width: min(480px, calc(100% - 24px)); max-height: calc(100% - 24px); margin: auto; padding: 0; border: 0; border-radius: 8px; overflow: auto; background: var(--poruch-surface, #fff); color: inherit; box-shadow: 0 10px 30px rgb(0 0 0 / 0.25); text-align: start; }
.alert-dialog::backdrop { background: rgb(0 0 0 / 0.45); }
.alert-dialog .alert-dialog__box { display: block; padding: 16px; }
.alert-dialog .dialog__header { display: flex !important; align-items: flex-start; justify-content: space-between; gap: 12px; margin: 0 0 8px; }
.alert-dialog .dialog__title { margin: 0; font-size: 18px; line-height: 1.3; }
.alert-dialog .dialog__actions { display: flex !important; flex-wrap: wrap; justify-content: flex-end; gap: 10px; margin: 0; }
.alert-dialog .alert-dialog__body { display: flex !important; flex-direction: column; flex-wrap: nowrap; align-items: stretch; gap: 12px; margin: 0; }
.alert-dialog .alert-dialog__body > * { flex: none; margin: 0; }
.alert-dialog .alert-dialog__body p { margin: 0; }
.alert-dialog__search ul { display: block; list-style: disc; margin: 4px 0 0; padding-left: 20px; }
.alert-dialog__search li { display: list-item; }
.alert-dialog__label { margin: 0; font-weight: 600; }
.alert-dialog .alert-dialog__frequency { display: flex !important; flex-direction: column; gap: 6px; border: 1px solid #c4c4c4; border-radius: 8px; padding: 8px 12px 12px; margin: 0; min-width: 0; }
.alert-dialog__frequency legend { font-weight: 600; padding: 0 4px; }
.alert-dialog .alert-dialog__option { display: flex !important; flex-direction: row; align-items: center; gap: 8px; cursor: pointer; font-weight: 400; }
.alert-dialog .alert-dialog__option input { width: 18px; height: 18px; min-height: 0; margin: 0; padding: 0; flex: none; }
.poruch-root .alert-dialog { background: ${themeVar('--poruch-color-surface')}; font-size: 16px; line-height: 1.5; }
.poruch-root .alert-dialog__intro { color: ${themeVar('--poruch-color-muted')}; font-size: 14.72px; }
.poruch-root .alert-dialog .field { display: flex !important; flex-direction: column; gap: 4px; }
.poruch-root .alert-dialog .field__label { font-weight: 600; font-size: 14.72px; }
.poruch-root .alert-dialog .field__error { color: ${themeVar('--poruch-color-error')}; font-size: 14.08px; font-weight: 600; }
.poruch-root .alert-dialog input[type="email"] { box-sizing: border-box; width: 100%; min-height: 40px; padding: 8px 10px; font: inherit; color: inherit; background: ${themeVar('--poruch-color-surface')}; border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')}; }
.poruch-root .alert-dialog input[type="radio"] { accent-color: ${themeVar('--poruch-color-primary')}; }
.poruch-root .alert-dialog .dialog__close { border: 0; background: none; font-size: 24px; line-height: 1; cursor: pointer; color: inherit; padding: 0 4px; }
.poruch-root .alert-dialog .button { display: inline-flex; align-items: center; justify-content: center; min-height: 40px; padding: 8px 14px; border-radius: ${themeVar('--poruch-radius')}; border: 1px solid ${themeVar('--poruch-color-primary')}; background: ${themeVar('--poruch-color-primary')}; color: ${themeVar('--poruch-color-on-primary')}; font: inherit; font-weight: 600; cursor: pointer; }
.poruch-root .alert-dialog .button--secondary { background: ${themeVar('--poruch-color-surface')}; color: ${themeVar('--poruch-color-primary')}; }
.poruch-root .alert-dialog .button:disabled { opacity: 0.55; cursor: not-allowed; }
.poruch-root .alert-button { margin: 0 0 8px; }
`;
