import { useState } from 'react';
import {
  categoryLabelKey,
  declineSchema,
  findByCode,
  flagUrl,
  formatDate,
  LIMITS,
  type AdminService,
} from '@poruch/core';
import { useApp } from '../../app/context.js';
import { FlagImage, TextField } from '../../forms/fields.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { useResource } from '@poruch/widgets';
import { Link } from '../../router/index.js';
import { adminApi } from './adminApi.js';
import { PossibleDuplicates } from './PossibleDuplicates.js';

/** Review of a service: its data and owner; approve, decline with a reason, mark or unmark partner. */
export function ServiceReview({ id }: { id: string }) {
  const { t, locale, api, showToast, confirm } = useApp();
  const admin = adminApi(api);
  const record = useResource((signal) => admin.service(id, signal), [id]);
  const form = useForm('decline', { reason: '' }, t);
  const [declining, setDeclining] = useState(false);
  const [busy, setBusy] = useState(false);
  const ok = (key: string) =>
    showToast({ severity: 'success', summary: t('success.summary'), detail: t(key) });

  const act = async (call: () => Promise<AdminService>, key: string) => {
    setBusy(true);
    try {
      const updated = await call();
      record.setData(() => updated);
      ok(key);
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };

  if (record.status === 'loading') return <StateView state="loading" />;
  if (record.status === 'error') return <StateView state="error" onRetry={record.reload} />;
  const s = record.data;
  /** "Decline as duplicate": the decline form, its reason written for the owner. */
  const declineAsDuplicate = (reason: string) => {
    form.set('reason', reason);
    setDeclining(true);
    // The form opens below the actions: take the administrator to the reason.
    requestAnimationFrame(() =>
      document.querySelector<HTMLTextAreaElement>('#decline-form textarea')?.focus(),
    );
  };

  const decline = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = form.validate(declineSchema);
    if (!body) return;
    const answer = await confirm({
      message: t('admin.confirm_decline', { name: s.name }),
      acceptLabel: t('admin.decline'),
      danger: true,
    });
    if (answer !== 'accept') return;
    const done = await form.run(() =>
      act(() => admin.decline(s.id, body.reason), 'success.service_declined'),
    );
    if (done) setDeclining(false);
  };

  const rows: [string, React.ReactNode][] = [
    [
      t('field.countryCode'),
      <span className="field__row" key="c">
        <FlagImage src={flagUrl(s.countryCode)} />
        {findByCode(s.countryCode, t)?.name ?? s.countryCode}
      </span>,
    ],
    [t('field.category'), s.category ? t(categoryLabelKey(s.category)) : t('category.empty')],
    [t('field.address'), s.address || '—'],
    [t('field.addressDetails'), s.addressDetails?.displayName ?? '—'],
    [t('field.website'), s.website || '—'],
    [t('field.phone'), s.phone || '—'],
    [t('field.descriptionUa'), s.descriptionUa || '—'],
    [t('field.descriptionOther'), s.descriptionOther || '—'],
    [t('field.isOnline'), s.isOnline ? t('common.yes') : t('common.no')],
    [t('field.showOnMap'), s.showOnMap ? t('common.yes') : t('common.no')],
    [t('field.originalPlace'), s.originalPlace || '—'],
    [t('field.marketingConsent'), s.marketingConsent ? t('common.yes') : t('common.no')],
    [t('field.createdAt'), formatDate(s.createdAt, locale)],
    [
      t('field.account'),
      s.owner
        ? `${s.owner.firstName} ${s.owner.lastName} · ${s.owner.email} · ${s.owner.phone}`
        : '—',
    ],
  ];

  return (
    <>
      <div className="section-head">
        <h1>
          {t('admin.review_title')}: {s.name}
        </h1>
        <Link to="/admin">{t('service_profile.back_to_list')}</Link>
      </div>
      <div className="item__head">
        <span className={`badge badge--${s.status}`}>{t(`service_status.${s.status}`)}</span>
        {s.isPartner && (
          <span className="badge badge--partner">{t('service_profile.partner')}</span>
        )}
      </div>
      {s.status === 'declined' && s.declineReason && (
        <Notice kind="error">
          {t('my_services.declined_reason', { reason: s.declineReason })}
        </Notice>
      )}
      <div className="card">
        <table className="data-table">
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {s.status === 'pending' && (
        <PossibleDuplicates id={s.id} onDecline={declineAsDuplicate} disabled={busy} />
      )}
      <div className="item__actions">
        <button
          type="button"
          className="button"
          disabled={busy || s.status === 'approved'}
          onClick={() => void act(() => admin.approve(s.id), 'success.service_approved')}
        >
          {t('admin.approve')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          aria-expanded={declining}
          onClick={() => setDeclining((d) => !d)}
        >
          {t('admin.decline')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() =>
            void act(() => admin.setPartner(s.id, !s.isPartner), 'success.partner_status_changed')
          }
        >
          {s.isPartner ? t('admin.unmark_partner') : t('admin.mark_partner')}
        </button>
      </div>
      {declining && (
        <form className="card form__section" onSubmit={decline} noValidate id="decline-form">
          <TextField
            {...form.bind('reason')}
            label={t('admin.decline_reason')}
            rows={3}
            required
            maxLength={LIMITS.reportDescriptionMax}
          />
          <div className="form__actions">
            <button type="submit" className="button button--danger" disabled={form.submitting}>
              {t('admin.decline')}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setDeclining(false)}
            >
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
