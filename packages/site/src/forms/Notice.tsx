import type { ReactNode } from 'react';
import { useT } from '../app/context.js';

/** An inline message in a form or screen: an error is announced at once, the rest politely. */
export function Notice({
  kind = 'info',
  children,
}: {
  kind?: 'info' | 'success' | 'warn' | 'error';
  children: ReactNode;
}) {
  return (
    <div className={`notice notice--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** Loading and error (with retry) states of a list or a record; texts default to the common ones. */
export function StateView({
  state,
  loadingText,
  errorText,
  retryText,
  onRetry,
}: {
  state: 'loading' | 'error';
  loadingText?: string;
  errorText?: string;
  retryText?: string;
  onRetry?: () => void;
}) {
  const t = useT();
  if (state === 'loading') {
    return (
      <p className="state state--loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" /> {loadingText ?? t('app.loading')}
      </p>
    );
  }
  return (
    <div className="state state--error" role="alert">
      <p>{errorText ?? t('dashboard.load_failed')}</p>
      {onRetry && (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          {retryText ?? t('common.retry')}
        </button>
      )}
    </div>
  );
}
