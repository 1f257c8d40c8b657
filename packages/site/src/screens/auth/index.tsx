import { useState } from 'react';
import { credentialsSchema, isApiError, resetPasswordSchema } from '@poruch/core';
import { useApp } from '../../app/context.js';
import { CheckboxField, TextField } from '../../forms/fields.js';
import { Notice } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { Link, useRoute } from '../../router/index.js';
import '../../forms/forms.css';

/** Login (`/login`) and reset password (`/reset-password`). */
export default function AuthScreen() {
  const { name } = useRoute();
  return name === 'reset-password' ? <ResetPassword /> : <Login />;
}

function Login() {
  const { t, auth, locale } = useApp();
  const form = useForm('login', { email: '', password: '' }, t);
  const [failed, setFailed] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailed(null);
    const credentials = form.validate(credentialsSchema);
    if (!credentials) return;
    // On success the app goes to `back` or /dashboard.
    await form.run(() => auth.getState().login(credentials), {
      onError: (err) => {
        if (isApiError(err)) setFailed(err.summary);
      },
    });
  };

  return (
    <section className="page form-page" data-screen="login">
      <h1>{t('login.title')}</h1>
      <form className="form card" onSubmit={submit} noValidate aria-busy={form.submitting}>
        {failed && <Notice kind="error">{failed}</Notice>}
        <TextField
          {...form.bind('email')}
          label={t('field.email')}
          type="email"
          autoComplete="username"
          required
        />
        <TextField
          {...form.bind('password')}
          label={t('field.password')}
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          required
        />
        <CheckboxField
          id="login-show-password"
          label={t('login.show_password')}
          checked={showPassword}
          onChange={setShowPassword}
        />
        <div className="form__actions">
          <button type="submit" className="button" disabled={form.submitting}>
            {t('login.submit')}
          </button>
          <Link to="/reset-password">{t('login.forgot_password')}</Link>
        </div>
        {locale === 'ua' && (
          <p className="form__footer">
            {t('login.no_account')} <Link to="/provide-help">{t('login.register_link')}</Link>
          </p>
        )}
      </form>
    </section>
  );
}

function ResetPassword() {
  const { t, api, showToast } = useApp();
  const form = useForm('reset', { email: '' }, t);
  const [sent, setSent] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = form.validate(resetPasswordSchema);
    if (!body) return;
    const done = await form.run(async () => {
      await api.resetPassword(body);
      return true;
    });
    if (done) {
      setSent(true);
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.temporary_password_sent'),
      });
    }
  };

  return (
    <section className="page form-page" data-screen="reset-password">
      <h1>{t('reset_password.title')}</h1>
      <form className="form card" onSubmit={submit} noValidate aria-busy={form.submitting}>
        {sent ? (
          <Notice kind="success">{t('success.temporary_password_sent')}</Notice>
        ) : (
          <p>{t('reset_password.text')}</p>
        )}
        <TextField
          {...form.bind('email')}
          label={t('field.email')}
          type="email"
          autoComplete="email"
          required
        />
        <div className="form__actions">
          <button type="submit" className="button" disabled={form.submitting}>
            {t('reset_password.submit')}
          </button>
          <Link to="/login">{t('reset_password.back_to_login')}</Link>
        </div>
      </form>
    </section>
  );
}
