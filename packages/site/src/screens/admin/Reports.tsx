import { REPORT_STATUSES, formatDate, type ReportStatus } from '@poruch/core';
import { useApp } from '../../app/context.js';
import { SelectField } from '../../forms/fields.js';
import { StateView } from '../../forms/Notice.js';
import { useResource } from '@poruch/widgets';
import { Link, useQuery } from '../../router/index.js';
import { adminApi } from './adminApi.js';
import { Pager, usePage } from './Pager.js';

/** Reports by status; a new one is resolved after a close confirmation. */
export function Reports() {
  const { t, locale, api, confirm, showToast } = useApp();
  const admin = adminApi(api);
  const [query, setQuery] = useQuery();
  const raw = query.get('status');
  // New reports first: that is the work to do.
  const status: ReportStatus | '' = raw === 'all' ? '' : raw === 'resolved' ? 'resolved' : 'new';
  const page = usePage();
  const list = useResource((signal) => admin.reports(status, page, signal), [status, page]);

  const resolve = async (id: string) => {
    const answer = await confirm({
      header: t('reports.resolve'),
      message: t('reports.confirm_resolve'),
    });
    if (answer !== 'accept') return;
    try {
      const updated = await admin.resolveReport(id);
      list.setData((p) => ({
        ...p,
        items:
          status === 'new'
            ? p.items.filter((r) => r.id !== id)
            : p.items.map((r) => (r.id === id ? updated : r)),
      }));
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.report_resolved'),
      });
    } catch {
      // The client has shown the error.
    }
  };

  return (
    <>
      <div className="section-head">
        <h1>{t('reports.title')}</h1>
      </div>
      <div className="filters">
        <SelectField
          id="reports-status"
          label={t('field.status')}
          value={raw === 'all' ? 'all' : status}
          onChange={(v) => setQuery({ status: v === 'new' ? null : v, page: null })}
          options={[
            ...REPORT_STATUSES.map((s) => ({ value: s, label: t(`report_status.${s}`) })),
            { value: 'all', label: t('admin.any') },
          ]}
        />
      </div>
      {list.status === 'loading' && <StateView state="loading" />}
      {list.status === 'error' && <StateView state="error" onRetry={list.reload} />}
      {list.status === 'ready' && list.data.items.length === 0 && (
        <p className="card state">{t('reports.empty')}</p>
      )}
      {list.status === 'ready' && list.data.items.length > 0 && (
        <ul className="item-list">
          {list.data.items.map((r) => (
            <li key={r.id} className="card item" data-report-id={r.id}>
              <div className="item__head">
                <h2 className="item__title">{t(`report_reason.${r.reason}`)}</h2>
                <span
                  className={`badge ${r.status === 'new' ? 'badge--pending' : 'badge--approved'}`}
                >
                  {t(`report_status.${r.status}`)}
                </span>
              </div>
              <p className="item__meta">
                {t('reports.service')}:{' '}
                {r.service ? (
                  <Link to={`/admin/services/${r.service.id}`}>{r.service.name}</Link>
                ) : (
                  '—'
                )}
                {' · '}
                {t('reports.created')}: {formatDate(r.createdAt, locale)}
              </p>
              {r.description && <p className="item__text">{r.description}</p>}
              {r.status === 'new' && (
                <div className="item__actions">
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => void resolve(r.id)}
                  >
                    {t('reports.resolve')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.status === 'ready' && (
        <Pager total={list.data.total} pageSize={list.data.pageSize} label={t('reports.title')} />
      )}
    </>
  );
}
