import { useEffect, useId, useRef } from 'react';
import { REPORT_REASONS, type ReportReason } from '@poruch/core/lite';
import { ErrorState } from '../shared/ErrorState.js';
import { useWidget } from '../shared/WidgetContext.js';
import { useConnector } from '../useConnector.js';
import { Field } from '../ui/Field.js';
import { messagesFor } from '../ui/fieldErrors.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { createReportForm } from './createReportForm.js';

/** What `poruch:report-sent` carries. */
export interface ReportSentDetail {
  serviceId: string;
  reportId: string;
}

export interface ReportFormProps {
  /** The reported service. */
  serviceId: string;
  /** Shows a cancel button that calls this (the profile closes the form). Defaults to none. */
  onCancel?: () => void;
  /** Move focus to the heading when shown (opened from a button). Defaults to false. */
  autoFocus?: boolean;
}

/**
 * The report form inside a widget shell: reasons, description, validation with the server's
 * schema, anonymous send, and the success message. Fires `poruch:report-sent`. A failed send
 * keeps everything typed and says why in the widget's language.
 */
export function ReportForm({ serviceId, onCancel, autoFocus = false }: ReportFormProps) {
  const { api, t, emit, setState } = useWidget();
  const [state, form] = useConnector(() => createReportForm({ api, serviceId }), [api, serviceId]);
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const success = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setState(state.error ? 'error' : 'ready', state.error ?? undefined);
  }, [state.error, setState]);

  useEffect(() => {
    if (autoFocus) heading.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (state.status === 'sent') success.current?.focus();
  }, [state.status]);

  if (state.status === 'sent') {
    return (
      <div className="report" part="report" ref={success} tabIndex={-1}>
        <StatusMessage kind="success" text={t('success.report_sent')} />
        <div className="report__actions">
          <button
            type="button"
            className="button button--secondary"
            part="button"
            onClick={form.reset}
          >
            {t('report_form.another')}
          </button>
          {onCancel && (
            <button type="button" className="button button--link" part="button" onClick={onCancel}>
              {t('common.close')}
            </button>
          )}
        </div>
      </div>
    );
  }

  const reasonErrors = messagesFor(t, state.fieldErrors, 'reason');
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const reportId = await form.submit();
    if (reportId) emit<ReportSentDetail>('report-sent', { serviceId, reportId });
  };

  return (
    <form
      className="report"
      part="report form"
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void onSubmit(e)}
    >
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t('report_form.title')}
      </h2>
      <p className="muted">{t('report_form.text')}</p>
      <fieldset
        aria-invalid={reasonErrors.length ? true : undefined}
        aria-describedby={reasonErrors.length ? `${id}-reason-error` : undefined}
      >
        <legend>{t('field.reason')}</legend>
        <div className="reasons" role="radiogroup" aria-label={t('field.reason')}>
          {REPORT_REASONS.map((reason) => (
            <label key={reason} className="reason">
              <input
                type="radio"
                name={`${id}-reason`}
                value={reason}
                checked={state.reason === reason}
                onChange={() => form.setReason(reason as ReportReason)}
              />
              <span>{t(`report_reason.${reason}`)}</span>
            </label>
          ))}
        </div>
        {reasonErrors.length > 0 && (
          <p className="field__error" id={`${id}-reason-error`} part="field-error">
            {reasonErrors.join(' ')}
          </p>
        )}
      </fieldset>
      <Field
        label={`${t('field.description')} (${t('common.optional')})`}
        errors={messagesFor(t, state.fieldErrors, 'description')}
      >
        <textarea
          name="description"
          value={state.description}
          rows={4}
          onChange={(e) => form.setDescription(e.currentTarget.value)}
        />
      </Field>
      {state.error != null && <ErrorState error={state.error} />}
      <div className="report__actions">
        <button
          type="submit"
          className="button"
          part="button submit"
          disabled={state.status === 'sending'}
        >
          {t('report_form.submit')}
        </button>
        {onCancel && (
          <button
            type="button"
            className="button button--secondary"
            part="button"
            onClick={onCancel}
          >
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
