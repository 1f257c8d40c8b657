import { useState } from 'react';
import {
  LIMITS,
  adminCreateSchema,
  formatDate,
  isApiError,
  type AdminCreate,
  type AdminRole,
  type Administrator,
} from '@poruch/core';
import { useApp, useAuth } from '../../app/context.js';
import { CheckboxField, TextField } from '../../forms/fields.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { useResource } from '@poruch/widgets';
import { adminApi } from './adminApi.js';

/** The question before each change of rights: promotion, demotion, removal (own or another's). */
function question(role: AdminRole, self: boolean): string {
  if (role === 'super') return 'admin.confirm_promote';
  if (role === 'admin') return self ? 'admin.confirm_demote_self' : 'admin.confirm_demote';
  return self ? 'admin.confirm_remove_self' : 'admin.confirm_remove';
}

/** The buttons that change an administrator's rights; the only super administrator has none. */
const ACTIONS = {
  super: [
    { role: 'admin', label: 'admin.demote' },
    { role: 'none', label: 'admin.remove_rights' },
  ],
  admin: [
    { role: 'super', label: 'admin.make_super' },
    { role: 'none', label: 'admin.remove_rights' },
  ],
} as const;

/**
 * Administrators (super administrators only): the list, with a change of each one's rights after
 * a confirmation (the server keeps at least one super administrator), and the add form; the
 * generated password is shown once.
 */
export function Administrators() {
  const { t, locale, api, auth, confirm, showToast } = useApp();
  const me = useAuth((s) => s.account?.id);
  const admin = adminApi(api);
  const list = useResource((signal) => adminApi(api).administrators(signal), [api]);
  const [busy, setBusy] = useState<string | null>(null);
  const blank: AdminCreate = { email: '', firstName: '', isSuper: false };
  const form = useForm('administrator', blank, t);
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const supers = list.data?.items.filter((a) => a.isSuper).length ?? 0;

  const change = async (who: Administrator, role: AdminRole) => {
    const self = who.id === me;
    const answer = await confirm({
      header: t('admin.administrators_title'),
      message: t(question(role, self), { email: who.email }),
      acceptLabel: t(
        role === 'super'
          ? 'admin.make_super'
          : role === 'admin'
            ? 'admin.demote'
            : 'admin.remove_rights',
      ),
      rejectLabel: t('common.cancel'),
      // Rights over the whole product change hands: each change is asked in the danger style.
      danger: true,
    });
    if (answer !== 'accept') return;
    setBusy(who.id);
    try {
      await admin.setRole(who.id, role);
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.role_changed'),
      });
      // Their own rights: the app learns at once, and the route rules take them out of here.
      if (self) await auth.getState().check();
      else list.reload();
    } catch {
      // The client has shown the error (the last super administrator, a lost right).
      list.reload();
    } finally {
      setBusy(null);
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(adminCreateSchema);
    if (!input) return;
    const result = await form.run(() => admin.addAdministrator(input), {
      onError: (err) =>
        isApiError(err) && err.key === 'email_is_used'
          ? [{ field: 'email', key: 'error.email_is_used' }]
          : undefined,
    });
    if (!result) return;
    setCreated({ email: result.account.email, password: result.password });
    form.reset(blank);
    list.reload();
    showToast({
      severity: 'success',
      summary: t('success.summary'),
      detail: t('success.administrator_added'),
    });
  };

  return (
    <>
      <div className="section-head">
        <h1>{t('admin.administrators_title')}</h1>
      </div>
      {list.status === 'loading' && !list.data && <StateView state="loading" />}
      {list.status === 'error' && <StateView state="error" onRetry={list.reload} />}
      {list.data && (
        <>
          <table className="data-table card admins" aria-busy={list.status === 'loading'}>
            <thead>
              <tr>
                <th scope="col">{t('field.firstName')}</th>
                <th scope="col">{t('field.email')}</th>
                <th scope="col">{t('admin.role')}</th>
                <th scope="col">{t('field.createdAt')}</th>
                <th scope="col">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((a) => (
                <tr key={a.id} data-admin-email={a.email}>
                  <td>
                    {[a.firstName, a.lastName].filter(Boolean).join(' ')}
                    {a.id === me && (
                      <>
                        {' '}
                        <span className="badge badge--partner">{t('admin.you')}</span>
                      </>
                    )}
                  </td>
                  <td className="admins__email">{a.email}</td>
                  <td>
                    <span className={`badge ${a.isSuper ? 'badge--approved' : 'badge--pending'}`}>
                      {t(a.isSuper ? 'admin.role_super' : 'admin.role_admin')}
                    </span>
                  </td>
                  <td>{formatDate(a.createdAt, locale)}</td>
                  <td>
                    {a.isSuper && supers <= 1 ? (
                      <span className="item__meta">{t('admin.last_super')}</span>
                    ) : (
                      <div className="admins__actions">
                        {ACTIONS[a.isSuper ? 'super' : 'admin'].map((action) => (
                          <button
                            key={action.role}
                            type="button"
                            className={`button button--small ${action.role === 'super' ? 'button--secondary' : 'button--danger'}`}
                            disabled={busy !== null}
                            onClick={() => void change(a, action.role)}
                          >
                            {t(action.label)}
                          </button>
                        ))}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <h2>{t('admin.add_administrator')}</h2>
      {created && (
        <Notice kind="success">
          <p>{t('admin.password_once', { email: created.email })}</p>
          <p className="secret" data-testid="generated-password">
            {created.password}
          </p>
        </Notice>
      )}
      <form className="card form__section" onSubmit={submit} noValidate aria-busy={form.submitting}>
        <TextField
          {...form.bind('email')}
          label={t('field.email')}
          type="email"
          required
          autoComplete="off"
        />
        <TextField
          {...form.bind('firstName')}
          label={t('field.firstName')}
          required
          maxLength={LIMITS.personNameMax}
          autoComplete="off"
        />
        <CheckboxField {...form.bindCheck('isSuper')} label={t('field.isSuper')} />
        <div className="form__actions">
          <button type="submit" className="button" disabled={form.submitting}>
            {t('admin.add_administrator')}
          </button>
        </div>
      </form>
    </>
  );
}
