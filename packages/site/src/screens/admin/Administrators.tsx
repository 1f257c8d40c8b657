import { useState } from 'react';
import { LIMITS, adminCreateSchema, isApiError, type AdminCreate } from '@poruch/core';
import { useApp } from '../../app/context.js';
import { CheckboxField, TextField } from '../../forms/fields.js';
import { Notice } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { adminApi } from './adminApi.js';

/** Add administrator (super administrators only); the generated password is shown once. */
export function Administrators() {
  const { t, api, showToast } = useApp();
  const blank: AdminCreate = { email: '', firstName: '', isSuper: false };
  const form = useForm('administrator', blank, t);
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(adminCreateSchema);
    if (!input) return;
    const result = await form.run(() => adminApi(api).addAdministrator(input), {
      onError: (err) =>
        isApiError(err) && err.key === 'email_is_used'
          ? [{ field: 'email', key: 'error.email_is_used' }]
          : undefined,
    });
    if (!result) return;
    setCreated({ email: result.account.email, password: result.password });
    form.reset(blank);
    showToast({
      severity: 'success',
      summary: t('success.summary'),
      detail: t('success.administrator_added'),
    });
  };

  return (
    <>
      <div className="section-head">
        <h1>{t('admin.add_administrator')}</h1>
      </div>
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
