import { isApiError, type Reconfirmed } from '@poruch/core';
import { useResource } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { Link, useQuery } from '../../router/index.js';
import '../../forms/forms.css';

/**
 * The "Still active" link of the yearly re-confirmation mail (`/confirm-service?token=…`): it
 * confirms the service with the signed token, no login needed, and says so; a forged or expired
 * link says why and points to the dashboard, where the owner can confirm after logging in.
 */
export default function ReconfirmScreen() {
  const { t, api } = useApp();
  const [query] = useQuery();
  const token = query.get('token') ?? '';
  const result = useResource(
    async (signal): Promise<Reconfirmed | string> => {
      if (!token) return 'reconfirm_link_invalid';
      try {
        // Silent: a refusal is this page's own message, not an error toast.
        return await api.send<Reconfirmed>(
          'POST',
          'reconfirm',
          { token },
          { silent: true, signal },
        );
      } catch (e) {
        if (signal.aborted || !isApiError(e)) throw e;
        return e.key;
      }
    },
    [token],
  );
  const done = result.status === 'ready' && typeof result.data !== 'string' ? result.data : null;
  return (
    <section className="page form-page" data-screen="reconfirm">
      <h1>{t('reconfirm.title')}</h1>
      <div
        className="card form__section"
        data-state={result.status === 'ready' ? (done ? 'confirmed' : 'refused') : result.status}
      >
        {result.status !== 'ready' ? (
          <StateView state={result.status === 'error' ? 'error' : 'loading'} />
        ) : done ? (
          <Notice kind="success">{t('reconfirm.done', { name: done.name })}</Notice>
        ) : (
          <Notice kind="error">{t(`error.${result.data as string}`)}</Notice>
        )}
        <p>
          <Link to="/dashboard/services">{t('reconfirm.dashboard')}</Link>
        </p>
      </div>
    </section>
  );
}
