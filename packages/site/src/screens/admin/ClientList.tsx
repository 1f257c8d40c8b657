import { useEffect, useMemo, useState } from 'react';
import {
  ADMIN_SEARCH_MIN,
  CATEGORY_KEYS,
  SERVICE_STATUSES,
  categoryLabelKey,
  findByCode,
  flagUrl,
  getCountries,
} from '@poruch/core';
import { useApp } from '../../app/context.js';
import { FlagImage, SelectField, TextField } from '../../forms/fields.js';
import { StateView } from '../../forms/Notice.js';
import { useResource } from '@poruch/widgets';
import { Link, useQuery } from '../../router/index.js';
import { adminApi } from './adminApi.js';
import { Pager } from './Pager.js';

const FILTERS = ['status', 'country', 'category', 'isPartner', 'stale'] as const;

/**
 * The client and partner list: expandable filters (status, country, category, partner, not
 * re-confirmed in time: `stale`) and a
 * search of at least 3 characters, all kept in the URL so a link can be shared.
 */
export function ClientList() {
  const { t, api, locale } = useApp();
  const [query, setQuery] = useQuery();
  const q = query.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const activeFilters = FILTERS.filter((f) => query.get(f));
  const [expanded, setExpanded] = useState(activeFilters.length > 0);
  const tooShort = typed.trim().length > 0 && typed.trim().length < ADMIN_SEARCH_MIN;

  // The search follows the typing, but never with 1 or 2 characters (too many users).
  useEffect(() => {
    const v = typed.trim();
    if (v.length > 0 && v.length < ADMIN_SEARCH_MIN) return;
    if (v === q) return;
    const timer = setTimeout(() => setQuery({ q: v, page: null }, { replace: true }), 300);
    return () => clearTimeout(timer);
  }, [typed, q, setQuery]);

  const params = useMemo(() => {
    const p: Record<string, string> = {};
    for (const k of [...FILTERS, 'q', 'page'] as const) {
      const v = query.get(k);
      if (v) p[k] = v;
    }
    return p;
  }, [query]);
  const key = JSON.stringify(params);
  const list = useResource((signal) => adminApi(api).services(params, signal), [key]);

  const countries = useMemo(() => getCountries(t, locale), [t, locale]);

  return (
    <>
      <div className="section-head">
        <h1>{t('admin.list_title')}</h1>
        <button
          type="button"
          className="button button--secondary"
          aria-expanded={expanded}
          aria-controls="admin-filters"
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? t('admin.filter_collapse') : t('admin.filter_expand')}
          {activeFilters.length > 0 && ` (${activeFilters.length})`}
        </button>
      </div>
      <form className="card form__section" role="search" onSubmit={(e) => e.preventDefault()}>
        <TextField
          id="admin-search"
          type="search"
          label={t('field.search')}
          placeholder={t('admin.search_placeholder')}
          value={typed}
          onChange={setTyped}
          hint={t('admin.search_min', { length: ADMIN_SEARCH_MIN })}
          errors={tooShort ? [t('admin.search_min', { length: ADMIN_SEARCH_MIN })] : []}
        />
        {expanded && (
          <div className="filters" id="admin-filters">
            <SelectField
              id="admin-status"
              label={t('field.status')}
              value={query.get('status') ?? ''}
              onChange={(v) => setQuery({ status: v, page: null })}
              placeholder={t('admin.any')}
              options={SERVICE_STATUSES.map((s) => ({ value: s, label: t(`service_status.${s}`) }))}
            />
            <SelectField
              id="admin-country"
              label={t('field.countryCode')}
              value={query.get('country') ?? ''}
              onChange={(v) => setQuery({ country: v, page: null })}
              placeholder={t('admin.any')}
              options={countries.map((c) => ({ value: c.code, label: c.name }))}
            />
            <SelectField
              id="admin-category"
              label={t('field.category')}
              value={query.get('category') ?? ''}
              onChange={(v) => setQuery({ category: v, page: null })}
              placeholder={t('category.all')}
              options={[...CATEGORY_KEYS, 'empty' as const].map((k) => ({
                value: k,
                label: t(categoryLabelKey(k)),
              }))}
            />
            <SelectField
              id="admin-partner"
              label={t('field.isPartner')}
              value={query.get('isPartner') ?? ''}
              onChange={(v) => setQuery({ isPartner: v, page: null })}
              placeholder={t('admin.any')}
              options={[
                { value: 'true', label: t('admin.partners_title') },
                { value: 'false', label: t('admin.clients_title') },
              ]}
            />
            <SelectField
              id="admin-stale"
              label={t('admin.stale_filter')}
              value={query.get('stale') ?? ''}
              onChange={(v) => setQuery({ stale: v, page: null })}
              placeholder={t('admin.any')}
              options={[{ value: 'true', label: t('admin.stale_only') }]}
            />
          </div>
        )}
      </form>
      {list.status === 'loading' && <StateView state="loading" />}
      {list.status === 'error' && <StateView state="error" onRetry={list.reload} />}
      {list.status === 'ready' && list.data.items.length === 0 && (
        <p className="card state">{t('common.nothing_found')}</p>
      )}
      {list.status === 'ready' && list.data.items.length > 0 && (
        <>
          <p className="item__meta" role="status">
            {t('home.results', { count: list.data.total })}
          </p>
          <table className="data-table card">
            <thead>
              <tr>
                <th scope="col">{t('field.name')}</th>
                <th scope="col">{t('field.account')}</th>
                <th scope="col">{t('field.countryCode')}</th>
                <th scope="col">{t('field.category')}</th>
                <th scope="col">{t('field.status')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={`/admin/services/${s.id}`}>{s.name}</Link>{' '}
                    {s.isPartner && (
                      <span className="badge badge--partner">{t('service_profile.partner')}</span>
                    )}
                  </td>
                  <td>{s.owner?.email ?? '—'}</td>
                  <td>
                    <span className="field__row">
                      <FlagImage src={flagUrl(s.countryCode)} />
                      {findByCode(s.countryCode, t)?.name ?? s.countryCode}
                    </span>
                  </td>
                  <td>{s.category ? t(categoryLabelKey(s.category)) : t('category.empty')}</td>
                  <td>
                    <span className={`badge badge--${s.status}`}>
                      {t(`service_status.${s.status}`)}
                    </span>
                    {s.status === 'approved' && s.confirmation !== 'current' && (
                      <>
                        {' '}
                        <span className="badge" data-confirmation={s.confirmation}>
                          {t(`admin.confirmation_${s.confirmation}`)}
                        </span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            total={list.data.total}
            pageSize={list.data.pageSize}
            label={t('admin.list_title')}
          />
        </>
      )}
    </>
  );
}
