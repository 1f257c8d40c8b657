import { useEffect, useState } from 'react';
import {
  categoryLabelKey,
  findByCode,
  type DuplicateAnswer,
  type DuplicateAnswers,
  type DuplicateCandidate,
} from '@poruch/core';
import {
  answerOf,
  DUPLICATE_CHECK_DELAY_MS,
  duplicateProbe,
  fetchDuplicates,
  keepAnswers,
  reasonText,
  withAnswer,
  type ServiceFormValues,
} from '@poruch/widgets';
import { useApp } from '../app/context.js';
import { Notice } from './Notice.js';
import { fieldId } from './paths.js';
import type { FormController } from './useForm.js';
import './duplicates.css';

type ShownRecord = Pick<
  DuplicateCandidate,
  'id' | 'name' | 'countryCode' | 'category' | 'address' | 'isOnline'
> &
  Partial<Pick<DuplicateCandidate, 'reasons' | 'distanceM' | 'phone' | 'website'>>;

/**
 * One service as duplicate detection shows it: its name (a link to its public page, in a new
 * tab), where it is, and why it looks alike. The service form, the review and the claims use it.
 */
export function DuplicateRecord({
  record,
  contacts,
  linked = true,
}: {
  record: ShownRecord & { descriptionUa?: string; descriptionOther?: string };
  /** Also its phone, website and descriptions (the claims' comparison). */
  contacts?: boolean;
  /** Its name links to its public page (not for a submission, which has none). */
  linked?: boolean;
}) {
  const { t } = useApp();
  const where = [
    record.isOnline && !record.address ? t('duplicates.online') : record.address,
    findByCode(record.countryCode, t)?.name ?? record.countryCode,
  ].filter(Boolean);
  return (
    <div className="duplicate__record">
      {linked ? (
        <a
          className="duplicate__name"
          href={`/services/${encodeURIComponent(record.id)}`}
          target="_blank"
          rel="noopener"
        >
          {record.name}
        </a>
      ) : (
        <span className="duplicate__name">{record.name}</span>
      )}
      <span className="duplicate__where">{where.join(' · ')}</span>
      {record.category && (
        <span className="duplicate__where">{t(categoryLabelKey(record.category))}</span>
      )}
      {contacts &&
        [record.phone, record.website, record.descriptionUa, record.descriptionOther]
          .filter(Boolean)
          .map((c) => (
            <span className="duplicate__where" key={c}>
              {c}
            </span>
          ))}
      {record.reasons && record.reasons.length > 0 && (
        <ul className="duplicate__reasons">
          {record.reasons.map((r) => (
            <li key={r}>{reasonText(t, record, r)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The service form's duplicate check (docs/product.md § Duplicates): once the address is
 * confirmed (or, off the map, a phone or website is typed), the approved services that look like
 * this one, and for each the partner's answer, kept in the form's `duplicates` value and sent
 * with the new service.
 */
export function DuplicatesPanel({
  form,
  prefix,
}: {
  form: FormController<object>;
  /** The service's path in the form values: `service` in registration, '' in the dashboard. */
  prefix: string;
}) {
  const { t, api } = useApp();
  const path = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const values = (prefix ? form.get(prefix) : form.values) as ServiceFormValues & {
    duplicates?: DuplicateAnswers;
  };
  const probe = duplicateProbe(values);
  const key = probe ? JSON.stringify(probe) : '';
  const [found, setFound] = useState<readonly DuplicateCandidate[]>([]);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (!probe) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setChecking(true);
      fetchDuplicates(api, probe, controller.signal)
        .then((candidates) => {
          setFound(candidates);
          const kept = keepAnswers(form.get(path('duplicates')), candidates);
          form.set(path('duplicates'), kept);
        })
        // A failed check hides nothing and blocks nothing: the review still sees duplicates.
        .catch(() => undefined)
        .finally(() => {
          if (!controller.signal.aborted) setChecking(false);
        });
    }, DUPLICATE_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // The probe's content is the dependency, not its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, api]);

  // Nothing to compare (no name, the address not confirmed): the last answer is not shown.
  const candidates = probe ? found : [];
  if (!candidates.length)
    return checking ? (
      <p className="field__hint" role="status">
        {t('duplicates.checking')}
      </p>
    ) : null;
  const answers = values.duplicates;
  const claimed = candidates.find((c) => c.id === answers?.claimOf);
  const answer = (id: string, a: DuplicateAnswer) =>
    form.set(path('duplicates'), withAnswer(answers, id, a));
  const titleId = `${fieldId(form.id, path('duplicates'))}-title`;

  return (
    <section className="duplicates" aria-labelledby={titleId} data-testid="duplicates">
      <h2 id={titleId} className="duplicates__title">
        {t('duplicates.title')}
      </h2>
      <p className="field__hint">{t('duplicates.intro')}</p>
      {candidates.map((c) => {
        const name = `${fieldId(form.id, path('duplicates'))}-${c.id}`;
        return (
          <fieldset className="duplicate" key={c.id}>
            <legend className="visually-hidden">
              {t('duplicates.answer_legend', { name: c.name })}
            </legend>
            <DuplicateRecord record={c} />
            <div className="duplicate__answers">
              {(['mine', 'different'] as const).map((a) => (
                <div className="field field--radio" key={a}>
                  <input
                    type="radio"
                    id={`${name}-${a}`}
                    name={name}
                    checked={answerOf(answers, c.id) === a}
                    onChange={() => answer(c.id, a)}
                  />
                  <label htmlFor={`${name}-${a}`}>{t(`duplicates.${a}`)}</label>
                </div>
              ))}
            </div>
          </fieldset>
        );
      })}
      {claimed && <Notice>{t('duplicates.claim_notice', { name: claimed.name })}</Notice>}
    </section>
  );
}
