import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS, isAbort, type ServicePage, type ServiceSummary } from '@poruch/core';
import { useApp } from '../../app/context.js';
import { RetryAlert } from './RetryAlert.js';

const RESULTS = 8;
const PAUSE_MS = 300;

type Found =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error' }
  | { kind: 'done'; items: ServiceSummary[] };

/** Where a service is, for telling two of the same name apart. */
const place = (s: Pick<ServiceSummary, 'address' | 'countryCode'>) =>
  [s.address, s.countryCode].filter(Boolean).join(', ');

/**
 * The service of a vacancy board or a report form, found by its name (nobody types a UUID): a
 * search field and the matching approved services as buttons. Once chosen it shows the service
 * with a button to choose another.
 */
export function ServicePicker({
  serviceId,
  required,
  onChange,
}: {
  serviceId: string;
  required: boolean;
  onChange: (id: string) => void;
}) {
  const { t, api } = useApp();
  const id = useId();
  const [q, setQ] = useState('');
  const [attempt, setAttempt] = useState(0);
  const [chosen, setChosen] = useState<ServiceSummary | null>(null);
  const [missing, setMissing] = useState<string | null>(null);

  // The search, one call per pause in typing. An answer counts for the text it was asked for.
  const text = q.trim();
  const searchKey = serviceId || text.length < 2 ? null : `${text}\n${attempt}`;
  const [answer, setAnswer] = useState<{ key: string; items: ServiceSummary[] | null } | null>(
    null,
  );
  const found: Found =
    searchKey === null
      ? { kind: 'idle' }
      : answer?.key !== searchKey
        ? { kind: 'loading' }
        : answer.items
          ? { kind: 'done', items: answer.items }
          : { kind: 'error' };
  useEffect(() => {
    if (searchKey === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .get<ServicePage>('services', {
          query: { q: searchKey.split('\n')[0]!, pageSize: RESULTS },
          signal: controller.signal,
          silent: true,
        })
        .then(
          (page) => setAnswer({ key: searchKey, items: page.items }),
          (e: unknown) => {
            if (!isAbort(e)) setAnswer({ key: searchKey, items: null });
          },
        );
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, searchKey]);

  // A service given by the link (the dashboard's action): its name, from its public profile.
  const known = chosen?.id === serviceId;
  const chosenFailed = missing === serviceId;
  useEffect(() => {
    if (!serviceId || known) return;
    const controller = new AbortController();
    api
      .get<ServiceSummary>(`services/${encodeURIComponent(serviceId)}`, {
        signal: controller.signal,
        silent: true,
      })
      .then(setChosen, (e: unknown) => {
        if (!isAbort(e)) setMissing(serviceId);
      });
    return () => controller.abort();
  }, [api, serviceId, known]);

  // The button pressed goes away: the focus moves to what replaced it, not to the page start.
  const changeButton = useRef<HTMLButtonElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (serviceId ? changeButton : searchField).current?.focus();
  }, [serviceId]);

  const choose = (s: ServiceSummary | null) => {
    moveFocus.current = true;
    setChosen(s);
    onChange(s?.id ?? '');
  };

  if (serviceId) {
    return (
      <div className="embed__service" role="group" aria-labelledby={`${id}-label`}>
        <span id={`${id}-label`} className="embed__label">
          {t('embed.service')}
        </span>
        {known ? (
          <p className="embed__chosen">
            <strong>{chosen.name}</strong>
            <span className="embed__hint">{place(chosen)}</span>
          </p>
        ) : chosenFailed ? (
          <p className="embed__hint embed__hint--error" role="alert">
            {t('embed.service_missing')}
          </p>
        ) : (
          <p className="embed__hint" role="status">
            {t('embed.loading')}
          </p>
        )}
        <button
          ref={changeButton}
          type="button"
          className="button button--secondary"
          onClick={() => choose(null)}
        >
          {t('embed.service_change')}
        </button>
      </div>
    );
  }

  return (
    <div className="embed__service">
      <div className="field">
        <label htmlFor={`${id}-q`}>
          {t('embed.service')}
          {!required && <span className="embed__hint"> ({t('common.optional')})</span>}
        </label>
        <input
          ref={searchField}
          id={`${id}-q`}
          type="search"
          value={q}
          maxLength={LIMITS.searchQueryMax}
          autoComplete="off"
          aria-describedby={`${id}-status`}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      <p id={`${id}-status`} className="embed__hint" role="status">
        {found.kind === 'idle' &&
          t(required ? 'embed.service_hint_required' : 'embed.service_hint')}
        {found.kind === 'loading' && t('embed.loading')}
        {found.kind === 'done' &&
          (found.items.length ? t('embed.service_found') : t('common.nothing_found'))}
      </p>
      {found.kind === 'error' && (
        <RetryAlert message={t('embed.service_error')} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      {found.kind === 'done' && found.items.length > 0 && (
        <ul className="embed__results">
          {found.items.map((s) => (
            <li key={s.id}>
              <button type="button" className="embed__result" onClick={() => choose(s)}>
                <strong>{s.name}</strong>
                <span className="embed__hint">{place(s)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
