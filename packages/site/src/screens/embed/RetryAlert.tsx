import { useT } from '../../app/context.js';

/** A failure of the builder's own calls: what failed and a "Try again" button. */
export function RetryAlert({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <div className="embed__status embed__status--error" role="alert">
      <p>{message}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
