import { useEffect, useId, useRef, useState } from 'react';
import {
  ALERT_FREQUENCIES,
  ALERT_LIMITS,
  ALERT_RADII_KM,
  alertFilterLines,
  alertSchema,
  translateError,
  zodErrorToFieldErrors,
  type AlertFrequency,
  type AlertNear,
  type AlertSearch,
  type FieldError,
  type LocaleCode,
  type PushSubscriptionInput,
  type Translate,
} from '@poruch/core';
import type { Api } from '@poruch/core/lite';
import { isApiError, translateFieldError } from '@poruch/core/lite';
import { fetchAddressSuggestions } from '../dashboard/serviceFormModel.js';
import { AddressCombobox } from './AddressCombobox.js';
import { Checkbox, Field } from './Field.js';
import { messagesFor } from './fieldErrors.js';

/** How long the confirmation link of the mail is valid, in days (the server's rule). */
const CONFIRM_DAYS = 7;

/** The radius offered first for "within R km of a place". */
const DEFAULT_RADIUS_KM = 25;

/**
 * Push on this device, offered only by the installed app (the site passes it when it runs
 * standalone and the browser can push; a widget on another site never does).
 */
export interface AlertPushOffer {
  /** Asks for the permission and subscribes this browser (from the tap); null when refused. */
  subscribe: () => Promise<PushSubscriptionInput | null>;
}

export interface AlertDialogProps {
  /** An API client; the widgets' is public (no cookies), the site's its own. */
  api: Api;
  t: Translate;
  /** The language of the confirmation mail and of every alert mail after it. */
  locale: LocaleCode;
  /** The search the alert follows: shown read-only. */
  search: AlertSearch;
  /** "Also notify me on this device": the installed app's offer; none elsewhere. */
  push?: AlertPushOffer | undefined;
  onClose: () => void;
}

/**
 * "Notify me about new results": the e-mail, how often, and the search shown read-only. Sends
 * `POST alerts` (double opt-in), then says to check the inbox. The site's home page and the
 * `alerts` attribute of `<poruch-search>` and `<poruch-vacancies>` show this same dialog, loaded
 * when AlertButton opens it (its validation is not part of a widget's first load). Its layout is
 * ALERT_DIALOG_CSS (alertDialogStyles.ts), in the widget's stylesheet or the page's.
 */
export function AlertDialog({ api, t, locale, search, push, onClose }: AlertDialogProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [frequency, setFrequency] = useState<AlertFrequency>('daily');
  // "Within R km of a place" (services): the place as typed, the suggestion taken, the radius.
  const searchNear = search.kind === 'services' ? search.filters.near : undefined;
  const [placeText, setPlaceText] = useState(searchNear?.label ?? '');
  const [place, setPlace] = useState<Omit<AlertNear, 'radiusKm'> | null>(
    searchNear ? { lat: searchNear.lat, lng: searchNear.lng, label: searchNear.label } : null,
  );
  const [radius, setRadius] = useState(searchNear?.radiusKm ?? DEFAULT_RADIUS_KM);
  const radii = [...new Set([...ALERT_RADII_KM, radius])].sort((a, b) => a - b);
  const [pushOn, setPushOn] = useState(false);
  const [pushResult, setPushResult] = useState<'on' | 'refused' | null>(null);
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
    let filters = search.filters;
    if (search.kind === 'services') {
      const { near: _, ...rest } = search.filters;
      filters = place ? { ...rest, near: { ...place, radiusKm: radius } } : rest;
    }
    const parsed = alertSchema.safeParse({ ...search, filters, email, frequency, locale });
    // Typed but not taken from the list: no place to measure from.
    const placeErrors: FieldError[] =
      search.kind === 'services' && placeText.trim() && !place
        ? [{ field: 'filters.near', key: 'validation.alert_place' }]
        : [];
    if (!parsed.success || placeErrors.length) {
      setFieldErrors([
        ...(parsed.success ? [] : zodErrorToFieldErrors(parsed.error)),
        ...placeErrors,
      ]);
      return;
    }
    setStatus('sending');
    setFieldErrors([]);
    setError(null);
    try {
      // The permission is asked first, while the tap still counts as the visitor's gesture.
      const device = push && pushOn ? await push.subscribe().catch(() => null) : null;
      if (push && pushOn) setPushResult(device ? 'on' : 'refused');
      const body = device ? { ...parsed.data, push: device } : parsed.data;
      await api.send('POST', 'alerts', body, { silent: true });
      setStatus('sent');
    } catch (failure) {
      setStatus('editing');
      setFieldErrors(isApiError(failure) ? failure.fields : []);
      setError(failure);
    }
  };

  const title = t(`alerts.dialog_title_${search.kind}`);
  // The place and radius are fields of their own below, not lines of the search.
  const readOnly =
    search.kind === 'services'
      ? { kind: search.kind, filters: { ...search.filters, near: undefined } }
      : search;
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
            {pushResult && (
              <p>{t(pushResult === 'on' ? 'alerts.push_after_confirm' : 'alerts.push_refused')}</p>
            )}
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
                {alertFilterLines(readOnly, t).map((line) => (
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
            {search.kind === 'services' && (
              <div className="alert-dialog__near">
                <Field
                  label={t('alerts.place')}
                  hint={t('alerts.place_hint')}
                  errors={fieldErrors
                    .filter((e) => e.field.startsWith('filters.near'))
                    .map((e) => translateFieldError(t, e))}
                >
                  <AddressCombobox
                    value={placeText}
                    onChange={(text) => {
                      setPlaceText(text);
                      setPlace(null);
                      setFieldErrors((f) => f.filter((x) => !x.field.startsWith('filters.near')));
                    }}
                    onPick={(c) => {
                      const label = c.displayName.slice(0, ALERT_LIMITS.placeLabelMax);
                      setPlaceText(label);
                      setPlace({ lat: c.lat, lng: c.lng, label });
                      setFieldErrors((f) => f.filter((x) => !x.field.startsWith('filters.near')));
                    }}
                    suggest={(text, signal) =>
                      fetchAddressSuggestions(api, text, search.filters.country ?? '', signal)
                    }
                    listLabel={t('alerts.place_suggestions')}
                    shownMessage={t('alerts.place_suggestions_shown')}
                    maxLength={ALERT_LIMITS.placeLabelMax}
                  />
                </Field>
                <Field label={t('alerts.radius_label')}>
                  <select
                    name="radius"
                    value={radius}
                    onChange={(e) => setRadius(Number(e.currentTarget.value))}
                  >
                    {radii.map((r) => (
                      <option key={r} value={r}>
                        {t('alerts.radius_option', { radius: r })}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
            )}
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
            {push && (
              <Checkbox label={t('alerts.push_device')} checked={pushOn} onChange={setPushOn} />
            )}
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
