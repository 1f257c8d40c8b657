import { useResource } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { DuplicateRecord } from '../../forms/DuplicatesPanel.js';
import { StateView } from '../../forms/Notice.js';
import { adminApi } from './adminApi.js';
import '../../forms/duplicates.css';

/**
 * The review's "Possible duplicates" of a pending service: each approved lookalike (a link to its
 * page), what the owner said about it, and "Decline as duplicate", which opens the decline form
 * with its reason written for the owner.
 */
export function PossibleDuplicates({
  id,
  onDecline,
  disabled,
}: {
  id: string;
  onDecline: (reason: string) => void;
  disabled: boolean;
}) {
  const { t, api } = useApp();
  const found = useResource((signal) => adminApi(api).duplicates(id, signal), [id]);
  return (
    <section
      className="card form__section"
      aria-labelledby="duplicates-title"
      data-testid="possible-duplicates"
    >
      <h2 id="duplicates-title">{t('duplicates.review_title')}</h2>
      {found.status === 'loading' && <StateView state="loading" />}
      {found.status === 'error' && <StateView state="error" onRetry={found.reload} />}
      {found.status === 'ready' && found.data.candidates.length === 0 && (
        <p>{t('duplicates.review_none')}</p>
      )}
      {found.status === 'ready' &&
        found.data.candidates.map((c) => (
          <div className="duplicate" key={c.id} data-candidate={c.id}>
            <DuplicateRecord record={c} />
            <button
              type="button"
              className="button button--small button--danger"
              disabled={disabled}
              onClick={() =>
                onDecline(
                  t('duplicates.decline_reason', {
                    name: c.name,
                    url: `${window.location.origin}/services/${c.id}`,
                  }),
                )
              }
            >
              {t('duplicates.decline_as_duplicate')}
            </button>
            <p className="duplicate__note">
              {c.answer === 'mine'
                ? t('duplicates.said_mine', {
                    status: t(`duplicates.claim_status.${c.claimStatus ?? 'open'}`),
                  })
                : c.answer === 'different'
                  ? t('duplicates.said_different')
                  : t('duplicates.said_nothing')}
            </p>
          </div>
        ))}
    </section>
  );
}
