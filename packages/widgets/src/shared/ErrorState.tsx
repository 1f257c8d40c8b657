import { isApiError, UNKNOWN_ERROR_KEY } from '@poruch/core/lite';
import { useWidget } from './WidgetContext.js';

export interface ErrorStateProps {
  /** The failure: an ApiError's key picks the message, anything else says `unknown_error`. */
  error: unknown;
  /** The message, already translated, instead of the error catalogue's. Defaults to none. */
  message?: string;
  /** Called by the retry button; no button without it. */
  onRetry?: () => void;
}

/**
 * The one error layout of every widget, instead of a blank box: a title, the message (the error
 * catalogue's, or `message`) and a retry button, each a block of its own. Parts: `error`,
 * `retry`.
 */
export function ErrorState({ error, message, onRetry }: ErrorStateProps) {
  const { t } = useWidget();
  const key = isApiError(error) ? error.key : UNKNOWN_ERROR_KEY;
  return (
    <div className="poruch-error" part="error" role="alert">
      <p className="poruch-error__title">{t('widget.error_title')}</p>
      <p className="poruch-error__message">{message ?? t(`error.${key}`)}</p>
      {onRetry && (
        <button type="button" part="button retry" onClick={onRetry}>
          {t('widget.retry')}
        </button>
      )}
    </div>
  );
}
