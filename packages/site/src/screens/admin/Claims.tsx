import { formatDate, type Claim } from '@poruch/core';
import { useResource } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { DuplicateRecord } from '../../forms/DuplicatesPanel.js';
import { StateView } from '../../forms/Notice.js';
import { Link } from '../../router/index.js';
import { adminApi } from './adminApi.js';
import { Pager, usePage } from './Pager.js';
import '../../forms/duplicates.css';

/**
 * Open ownership claims ("This is mine" when adding a service): the partner's new entry beside
 * the listed service, approved (the listed service moves to the partner, the entry is removed)
 * or declined (the entry waits for review) after a confirmation.
 */
export function Claims() {
  const { t, locale, api, confirm, showToast } = useApp();
  const admin = adminApi(api);
  const page = usePage();
  const list = useResource((signal) => admin.claims(page, signal), [page]);

  const resolve = async (c: Claim, verb: 'approve' | 'decline') => {
    const answer = await confirm({
      message: t(`duplicates.confirm_${verb}`, {
        name: c.claimed.name,
        email: c.claimant?.email ?? '—',
      }),
      acceptLabel: t(`duplicates.${verb}_claim`),
      danger: verb === 'approve',
    });
    if (answer !== 'accept') return;
    try {
      await admin.resolveClaim(c.submitted.id, c.claimed.id, verb);
      // The page fills up again from the next one.
      list.reload();
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t(verb === 'approve' ? 'duplicates.claim_approved' : 'duplicates.claim_declined'),
      });
    } catch {
      // The client has shown the error.
    }
  };

  return (
    <>
      <div className="section-head">
        <h1>{t('duplicates.claims_title')}</h1>
      </div>
      <p>{t('duplicates.claims_intro')}</p>
      {list.status === 'loading' && <StateView state="loading" />}
      {list.status === 'error' && <StateView state="error" onRetry={list.reload} />}
      {list.status === 'ready' && list.data.items.length === 0 && (
        <p className="card state">{t('duplicates.claims_empty')}</p>
      )}
      {list.status === 'ready' && list.data.items.length > 0 && (
        <ul className="item-list">
          {list.data.items.map((c) => (
            <li
              key={`${c.submitted.id}:${c.claimed.id}`}
              className="card item"
              data-claim={c.claimed.id}
            >
              <p className="item__meta">
                {t('duplicates.claimant', {
                  email: c.claimant?.email ?? '—',
                  date: formatDate(c.createdAt, locale),
                })}
              </p>
              <div className="claim__records">
                <div>
                  <h3>{t('duplicates.submitted')}</h3>
                  <DuplicateRecord record={c.submitted} contacts linked={false} />
                  <Link to={`/admin/services/${c.submitted.id}`}>{t('admin.review_title')}</Link>
                </div>
                <div>
                  <h3>{t('duplicates.listed')}</h3>
                  <DuplicateRecord record={c.claimed} contacts />
                </div>
              </div>
              <div className="item__actions">
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => void resolve(c, 'approve')}
                >
                  {t('duplicates.approve_claim')}
                </button>
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => void resolve(c, 'decline')}
                >
                  {t('duplicates.decline_claim')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {list.status === 'ready' && (
        <Pager
          total={list.data.total}
          pageSize={list.data.pageSize}
          label={t('duplicates.claims_title')}
        />
      )}
    </>
  );
}
