import { useEffect, useMemo, useState } from 'react';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  LIMITS,
  auditQuerySchema,
  formatDate,
  issueToFieldError,
  translateFieldError,
  type AuditEntry,
} from '@poruch/core';
import { useApp } from '../../app/context.js';
import { SelectField, TextField } from '../../forms/fields.js';
import { StateView } from '../../forms/Notice.js';
import { useResource } from '@poruch/widgets';
import { Link, useQuery } from '../../router/index.js';
import { adminApi } from './adminApi.js';
import { Pager, usePage } from './Pager.js';

/** The filters, each kept in the URL under its name: a reload or a shared link keeps them. */
const FILTERS = ['action', 'targetType', 'actor', 'target', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * A day of the date fields (`YYYY-MM-DD`, the viewer's own calendar) as the API's instant: the
 * start of that day, or with `next` the start of the day after (`to` is exclusive, the day is
 * included).
 */
function dayStart(day: string, next = false): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day || undefined;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (next ? 1 : 0));
  return Number.isNaN(date.getTime()) ? day : date.toISOString();
}

/** A text filter typed in a field: the URL follows the typing after a pause. */
function TypedFilter({ name, errors }: { name: 'actor' | 'target'; errors: string[] }) {
  const { t } = useApp();
  const [query, setQuery] = useQuery();
  const inUrl = query.get(name) ?? '';
  const [typed, setTyped] = useState(inUrl);
  // Back, Forward and "clear filters" change the URL: the field follows (during render, the
  // way React adjusts state to a changed input).
  const [seen, setSeen] = useState(inUrl);
  if (seen !== inUrl) {
    setSeen(inUrl);
    if (typed.trim() !== inUrl) setTyped(inUrl);
  }
  useEffect(() => {
    if (typed.trim() === inUrl) return;
    const timer = setTimeout(
      () => setQuery({ [name]: typed.trim(), page: null }, { replace: true }),
      300,
    );
    return () => clearTimeout(timer);
  }, [typed, inUrl, name, setQuery]);
  return (
    <TextField
      id={`audit-${name}`}
      type="search"
      label={t(`audit.${name}`)}
      hint={t(`audit.${name}_hint`)}
      value={typed}
      onChange={setTyped}
      maxLength={LIMITS.searchQueryMax}
      errors={errors}
    />
  );
}

/** What an entry acted on: the service (a link to its review), account, report or campaign. */
function Target({ entry }: { entry: AuditEntry }) {
  const { t } = useApp();
  const label = entry.targetLabel ?? t('audit.deleted');
  return (
    <>
      <span className="item__meta">{t(`audit.type.${entry.targetType}`)}: </span>
      {entry.targetType === 'service' && entry.targetLabel && entry.targetId ? (
        <Link to={`/admin/services/${entry.targetId}`}>{label}</Link>
      ) : (
        <span className="audit__target">{label}</span>
      )}
    </>
  );
}

/** A line of detail where an action has one: a decline's reason, a campaign's recipients. */
function detailOf(entry: AuditEntry, t: ReturnType<typeof useApp>['t']): string | null {
  const { reason, recipients } = entry.details;
  if (typeof reason === 'string' && reason) return t('audit.reason', { reason });
  if (typeof recipients === 'number') return t('audit.recipients', { count: recipients });
  return null;
}

/**
 * The audit log: every administrator's action, newest first, filtered by action, kind of target,
 * actor, target and dates, and paged; all of it in the URL.
 */
export function AuditLog() {
  const { t, api, locale } = useApp();
  const [query, setQuery] = useQuery();
  const page = usePage();
  const value = (name: Filter) => query.get(name) ?? '';
  const active = FILTERS.filter((f) => value(f));

  // The request, checked with the schema the server checks it with.
  const request = useMemo((): {
    query: Record<string, string> | null;
    errors: Partial<Record<Filter, string>>;
  } => {
    const q: Record<string, string> = {};
    for (const f of FILTERS) {
      const v = query.get(f);
      if (!v) continue;
      q[f] = (f === 'from' ? dayStart(v) : f === 'to' ? dayStart(v, true) : v) ?? v;
    }
    if (page > 1) q.page = String(page);
    const parsed = auditQuerySchema.safeParse(q);
    return parsed.success
      ? { query: q, errors: {} }
      : {
          query: null,
          errors: Object.fromEntries(
            parsed.error.issues
              .flatMap(issueToFieldError)
              .map((e) => [e.field, translateFieldError(t, e)]),
          ),
        };
  }, [query, page, t]);
  const key = JSON.stringify(request.query);
  const list = useResource(
    (signal) =>
      request.query
        ? adminApi(api).audit(request.query, signal)
        : Promise.reject(new Error('invalid')),
    [key],
  );
  const set = (name: Filter) => (v: string) => setQuery({ [name]: v, page: null });
  const errorsOf = (name: Filter) => (request.errors[name] ? [request.errors[name]] : []);

  return (
    <>
      <div className="section-head">
        <h1>{t('audit.title')}</h1>
        {active.length > 0 && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setQuery(Object.fromEntries([...FILTERS, 'page'].map((f) => [f, null])))}
          >
            {t('audit.clear')} ({active.length})
          </button>
        )}
      </div>
      <p className="page__intro">{t('audit.intro')}</p>
      <form className="card form__section" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="filters audit__filters">
          <SelectField
            id="audit-action"
            label={t('audit.action_label')}
            value={value('action')}
            onChange={set('action')}
            placeholder={t('audit.all_actions')}
            options={AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.action.${a}`) }))}
            errors={errorsOf('action')}
          />
          <SelectField
            id="audit-target-type"
            label={t('audit.target_type')}
            value={value('targetType')}
            onChange={set('targetType')}
            placeholder={t('audit.all_types')}
            options={AUDIT_TARGET_TYPES.map((k) => ({ value: k, label: t(`audit.type.${k}`) }))}
            errors={errorsOf('targetType')}
          />
          <TypedFilter name="actor" errors={errorsOf('actor')} />
          <TypedFilter name="target" errors={errorsOf('target')} />
          {(['from', 'to'] as const).map((name) => (
            <TextField
              key={name}
              id={`audit-${name}`}
              type="date"
              label={t(`audit.${name}`)}
              value={value(name)}
              onChange={set(name)}
              errors={errorsOf(name)}
            />
          ))}
        </div>
      </form>
      {request.query && list.status === 'loading' && <StateView state="loading" />}
      {request.query && list.status === 'error' && (
        <StateView state="error" onRetry={list.reload} />
      )}
      {request.query && list.status === 'ready' && list.data.items.length === 0 && (
        <p className="card state">{active.length ? t('audit.empty_filtered') : t('audit.empty')}</p>
      )}
      {request.query && list.status === 'ready' && list.data.items.length > 0 && (
        <>
          <p className="item__meta" role="status">
            {t('audit.results', { count: list.data.total })}
          </p>
          <table className="data-table card audit">
            <thead>
              <tr>
                <th scope="col">{t('audit.when')}</th>
                <th scope="col">{t('audit.actor')}</th>
                <th scope="col">{t('audit.action_label')}</th>
                <th scope="col">{t('audit.acted_on')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((e) => {
                const detail = detailOf(e, t);
                return (
                  <tr key={e.id} data-audit-action={e.action}>
                    <td>
                      <time dateTime={e.createdAt}>{formatDate(e.createdAt, locale)}</time>
                    </td>
                    <td className="audit__actor">{e.actor?.email ?? t('audit.deleted_account')}</td>
                    <td>
                      <strong>{t(`audit.action.${e.action}`)}</strong>
                      {detail && <span className="item__meta audit__detail">{detail}</span>}
                    </td>
                    <td>
                      <Target entry={e} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager total={list.data.total} pageSize={list.data.pageSize} label={t('audit.title')} />
        </>
      )}
    </>
  );
}
