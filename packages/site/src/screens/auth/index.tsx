import { useState } from 'react';
import { credentialsSchema, isApiError, resetPasswordSchema } from '@poruch/core';
import { useApp } from '../../app/context.js';
import { CheckboxField } from '../../forms/fields.js';
import { FieldList, FormCard, emailField, type FormCardProps } from '../../forms/FieldList.js';
import { Notice } from '../../forms/Notice.js';
import { useForm, type FormController } from '../../forms/useForm.js';
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
      // The failure shows above the form, and only there.
      onError: (err) => {
        if (!isApiError(err)) return;
        setFailed(t(`error.${err.key}`));
        return 'shown';
      },
    });
  };

  return (
    <AuthPage
      screen="login"
      title={t('login.title')}
      onSubmit={submit}
      submitLabel={t('login.submit')}
      busy={form.submitting}
      actions={<Link to="/reset-password">{t('login.forgot_password')}</Link>}
      footer={
        locale === 'ua' && (
          <p className="form__footer">
            {t('login.no_account')} <Link to="/provide-help">{t('login.register_link')}</Link>
          </p>
        )
      }
    >
      {failed && <Notice kind="error">{failed}</Notice>}
      <FieldList
        form={form as FormController<object>}
        fields={[
          emailField(t, '', { autoComplete: 'username', required: true }),
          {
            path: 'password',
            label: t('field.password'),
            kind: 'password',
            reveal: showPassword,
            autoComplete: 'current-password',
            required: true,
          },
        ]}
      />
      <CheckboxField
        id="login-show-password"
        label={t('login.show_password')}
        checked={showPassword}
        onChange={setShowPassword}
      />
    </AuthPage>
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
    <AuthPage
      screen="reset-password"
      title={t('reset_password.title')}
      onSubmit={submit}
      submitLabel={t('reset_password.submit')}
      busy={form.submitting}
      actions={<Link to="/login">{t('reset_password.back_to_login')}</Link>}
    >
      {sent ? (
        <Notice kind="success">{t('success.temporary_password_sent')}</Notice>
      ) : (
        <p>{t('reset_password.text')}</p>
      )}
      <FieldList
        form={form as FormController<object>}
        fields={[emailField(t, '', { required: true })]}
      />
    </AuthPage>
  );
}

/** The page of a login-side form: its heading and the form in a card. */
function AuthPage({
  screen,
  title,
  ...card
}: Omit<FormCardProps, 'className' | 'title'> & { screen: string; title: string }) {
  return (
    <section className="page form-page" data-screen={screen}>
      <h1>{title}</h1>
      <FormCard {...card} className="form card" />
    </section>
  );
}
