import { t } from '../text.js';

export interface StatusBannerProps {
  onRetry: () => void;
}

/** Shown when the API is unreachable: the shell still works, logged out, with a retry. */
export function StatusBanner({ onRetry }: StatusBannerProps) {
  return (
    <div className="status-banner" role="alert">
      <p>{t('session.unavailable')}</p>
      <button type="button" className="button button--light" onClick={onRetry}>
        {t('session.retry')}
      </button>
    </div>
  );
}
