import { useApp } from '../app/context.js';

/** Shown while a screen's code loads or the login state is being checked. */
export function PageLoading() {
  const { t } = useApp();
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t('app.loading')}</span>
    </div>
  );
}
