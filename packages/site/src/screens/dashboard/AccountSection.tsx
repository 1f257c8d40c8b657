import { useState } from 'react';
import {
  LANGUAGE_OPTIONS,
  accountDeletionSchema,
  credentialsChangeSchema,
  isApiError,
  personalDataUpdateSchema,
  type Account,
} from '@poruch/core';
import { useApp, useAuth } from '../../app/context.js';
import {
  FieldList,
  FormCard,
  currentPasswordField,
  emailField,
  nameFields,
  newPasswordFields,
  phoneField,
} from '../../forms/FieldList.js';
import { Notice } from '../../forms/Notice.js';
import { useForm, type FormController } from '../../forms/useForm.js';

/** Account: personal data, credentials and deletion. */
export function AccountSection() {
  const { t } = useApp();
  const account = useAuth((s) => s.account);
  if (!account) return null;
  return (
    <>
      <div className="section-head">
        <h1>{t('account.title')}</h1>
        <span className="badge">{t(`account_type.${account.type}`)}</span>
      </div>
      <p className="item__meta">
        {t('dashboard.greeting', { name: account.firstName || account.email })}
      </p>
      <PersonalDataForm account={account} />
      <CredentialsForm account={account} />
      <DataExport />
      <AccountDeletion />
    </>
  );
}

const success = (t: (k: string) => string, key: string) => ({
  severity: 'success' as const,
  summary: t('success.summary'),
  detail: t(key),
});

function PersonalDataForm({ account }: { account: Account }) {
  const { t, auth, showToast } = useApp();
  const form = useForm(
    'personal',
    {
      firstName: account.firstName,
      lastName: account.lastName,
      phone: account.phone,
      locale: account.locale,
      marketingConsent: account.marketingConsent,
    },
    t,
  );
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const changes = form.validate(personalDataUpdateSchema);
    if (!changes) return;
    const updated = await form.run(() => auth.getState().update(changes));
    if (updated) showToast(success(t, 'success.data_changed'));
  };
  return (
    <FormCard
      title={t('personal_data.title')}
      onSubmit={submit}
      submitLabel={t('personal_data.submit')}
      busy={form.submitting}
    >
      <FieldList
        form={form as FormController<object>}
        fields={[
          nameFields(t),
          [
            phoneField(t),
            {
              path: 'locale',
              label: t('dashboard.mail_language'),
              kind: 'select',
              options: LANGUAGE_OPTIONS.map((o) => ({
                value: o.code,
                label: t(`language.${o.code}`),
              })),
            },
          ],
          { path: 'marketingConsent', label: t('field.marketingConsent'), kind: 'checkbox' },
        ]}
      />
    </FormCard>
  );
}

function CredentialsForm({ account }: { account: Account }) {
  const { t, api, auth, showToast } = useApp();
  const blank = { currentPassword: '', email: account.email, newPassword: '', confirmPassword: '' };
  const form = useForm('credentials', blank, t);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const v = form.values;
    const body = {
      currentPassword: v.currentPassword,
      ...(v.email.trim().toLowerCase() !== account.email ? { email: v.email } : {}),
      ...(v.newPassword || v.confirmPassword
        ? { newPassword: v.newPassword, confirmPassword: v.confirmPassword }
        : {}),
    };
    const change = form.validate(credentialsChangeSchema, body);
    if (!change) return;
    const updated = await form.run(() => api.changeCredentials(change), {
      onError: (err) =>
        isApiError(err) && err.key === 'wrong_current_password'
          ? [{ field: 'currentPassword', key: 'error.wrong_current_password' }]
          : undefined,
    });
    if (updated) {
      auth.getState().setAccount(updated);
      form.reset({ ...blank, email: updated.email });
      showToast(success(t, 'success.credentials_changed'));
    }
  };
  return (
    <FormCard
      title={t('credentials.title')}
      onSubmit={submit}
      submitLabel={t('credentials.submit')}
      busy={form.submitting}
    >
      <p className="field__hint">{t('credentials.text')}</p>
      <FieldList
        form={form as FormController<object>}
        fields={[
          emailField(t),
          newPasswordFields(t, 'newPassword', 'confirmPassword'),
          currentPasswordField(t),
        ]}
      />
    </FormCard>
  );
}

/** Downloads everything kept about the account as one JSON file (GET account/export). */
function DataExport() {
  const { t, api } = useApp();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const data = await api.exportAccount();
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = `poruch-account-${new Date().toISOString().slice(0, 10)}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch {
      // The API client has already shown the error in the user's language.
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card form__section" aria-labelledby="export-title">
      <h2 id="export-title">{t('account.export_data')}</h2>
      <p className="field__hint">{t('account.export_data_text')}</p>
      <div className="form__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={download}
          disabled={busy}
          aria-busy={busy}
        >
          {t('account.export_data')}
        </button>
      </div>
    </section>
  );
}

function AccountDeletion() {
  const { t, api, auth, confirm, showToast } = useApp();
  const form = useForm('deletion', { currentPassword: '' }, t);
  const [open, setOpen] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = form.validate(accountDeletionSchema);
    if (!body) return;
    const answer = await confirm({
      header: t('account_deletion.title'),
      message: t('account_deletion.confirm'),
      acceptLabel: t('account_deletion.submit'),
      rejectLabel: t('common.cancel'),
      danger: true,
    });
    if (answer !== 'accept') return;
    const done = await form.run(
      async () => {
        await api.deleteAccount(body);
        return true;
      },
      {
        onError: (err) =>
          isApiError(err) && err.key === 'wrong_current_password'
            ? [{ field: 'currentPassword', key: 'error.wrong_current_password' }]
            : undefined,
      },
    );
    if (done) {
      showToast(success(t, 'success.account_deleted'));
      // The account is gone: the app goes to /login.
      auth.getState().clear();
    }
  };
  return (
    <section className="card form__section" aria-labelledby="deletion-title">
      <h2 id="deletion-title">{t('account_deletion.title')}</h2>
      <Notice kind="warn">{t('account_deletion.warning')}</Notice>
      {!open ? (
        <div className="form__actions">
          <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
            {t('account_deletion.submit')}
          </button>
        </div>
      ) : (
        <FormCard
          className="form"
          onSubmit={submit}
          submitLabel={t('account_deletion.submit')}
          busy={form.submitting}
          danger
          actions={
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setOpen(false)}
            >
              {t('common.cancel')}
            </button>
          }
        >
          <FieldList form={form as FormController<object>} fields={[currentPasswordField(t)]} />
        </FormCard>
      )}
    </section>
  );
}
