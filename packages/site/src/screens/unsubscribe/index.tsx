import { useApp } from '../../app/context.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { useResource } from '@poruch/widgets';
import { Link, useQuery } from '../../router/index.js';
import '../../forms/forms.css';

/** The unsubscribe result (`/unsubscribe?token=…`, linked from every campaign mail). */
export default function UnsubscribeScreen() {
  const { t, api } = useApp();
  const [query] = useQuery();
  const token = query.get('token') ?? '';
  const result = useResource(
    async (signal) => {
      if (!token) return false;
      try {
        // Silent: a failure is this page's own message, not an error toast.
        await api.send('POST', 'unsubscribe', { token }, { silent: true, signal });
        return true;
      } catch (e) {
        if (signal.aborted) throw e;
        return false;
      }
    },
    [token],
  );
  return (
    <section className="page form-page" data-screen="unsubscribe">
      <h1>{t('unsubscribe.title')}</h1>
      <div
        className="card form__section"
        data-state={result.status === 'ready' ? String(result.data) : result.status}
      >
        {result.status === 'loading' && <StateView state="loading" />}
        {result.status === 'ready' &&
          (result.data ? (
            <Notice kind="success">{t('success.unsubscribe_succeeded')}</Notice>
          ) : (
            <Notice kind="error">{t('success.unsubscribe_failed')}</Notice>
          ))}
        <p>
          <Link to="/">{t('unsubscribe.back_home')}</Link>
        </p>
      </div>
    </section>
  );
}
