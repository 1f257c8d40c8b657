import { isApiError, UNKNOWN_ERROR_KEY } from '@poruch/core/lite';
import { useWidget } from './WidgetContext.js';

export interface ErrorStateProps {
  /** The failure: an ApiError's key picks the message, anything else says `unknown_error`. */
  error: unknown;
  /** Called by the retry button; no button without it. */
  onRetry?: () => void;
}

/**
 * The translated error state every widget shows instead of a blank box: a title, the error
 * catalogue's message and a retry button. Part: `error`.
 */
export function ErrorState({ error, onRetry }: ErrorStateProps) {
  const { t } = useWidget();
  const key = isApiError(error) ? error.key : UNKNOWN_ERROR_KEY;
  return (
    <div className="poruch-error" part="error" role="alert">
      <strong>{t('widget.error_title')}</strong>
      <span>{t(`error.${key}`)}</span>
      {onRetry && (
        <button type="button" part="button retry" onClick={onRetry}>
          {t('widget.retry')}
        </button>
      )}
    </div>
  );
}
