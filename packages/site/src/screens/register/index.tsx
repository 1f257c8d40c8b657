import { useState } from 'react';
import { LIMITS, isApiError } from '@poruch/core';
import { emptyRegistrationValues, validateRegistration } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { CheckboxField } from '../../forms/fields.js';
import {
  FieldList,
  emailField,
  nameFields,
  newPasswordFields,
  phoneField,
} from '../../forms/FieldList.js';
import { Notice } from '../../forms/Notice.js';
import { ServiceFields } from '../../forms/ServiceFields.js';
import { useAddressCheck } from '../../forms/useAddressCheck.js';
import { useForm, type FormController } from '../../forms/useForm.js';
import { Link } from '../../router/index.js';
import '../../forms/forms.css';

/** `/provide-help`: registration of a service or partner, the account and its first service. */
export default function RegisterScreen() {
  const { t, api, auth, locale, showToast } = useApp();
  const form = useForm('register', emptyRegistrationValues(), t);
  const address = useAddressCheck(api, form as FormController<object>, 'service');
  const [emailUsed, setEmailUsed] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setEmailUsed(false);
    const addressErrors = await address.ensure();
    const { data, errors } = validateRegistration(form.values, locale, addressErrors);
    if (!data) {
      form.setErrors(errors);
      return;
    }
    const result = await form.run(() => api.register(data), {
      onError: (err) => {
        if (isApiError(err) && err.key === 'email_is_used') {
          setEmailUsed(true);
          return [{ field: 'account.email', key: 'error.email_is_used' }];
        }
      },
    });
    if (result) {
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.registered'),
      });
      // The server started a session: the app leaves this logged-out-only screen for the dashboard.
      auth.getState().setAccount(result.account);
    }
  };

  const label = (name: string) => t(`field.${name}`);

  return (
    <section className="page form-page form-page--wide" data-screen="provide-help">
      <h1>{t('registration.title')}</h1>
      <p className="page__intro">{t('registration.intro')}</p>
      <form className="form" onSubmit={submit} noValidate aria-busy={form.submitting}>
        <fieldset className="card form__section">
          <legend>{t('registration.account_step')}</legend>
          <FieldList
            form={form as FormController<object>}
            fields={[
              nameFields(t, 'account'),
              emailField(t, 'account', {
                required: true,
                hint: emailUsed ? (
                  <Link to="/login">{t('registration.login_instead')}</Link>
                ) : undefined,
              }),
              phoneField(t, 'account'),
              newPasswordFields(t, 'account.password', 'account.confirmPassword', {
                required: true,
                hint: t('registration.password_hint', { length: LIMITS.passwordMin }),
              }),
            ]}
          />
        </fieldset>
        <fieldset className="card form__section">
          <legend>{t('registration.service_step')}</legend>
          <ServiceFields
            form={form as FormController<object>}
            prefix="service"
            address={address}
            checkDuplicates
          />
        </fieldset>
        <div className="card form__section">
          <CheckboxField
            {...form.bindCheck('termsAgreed')}
            label={
              <>
                {label('termsAgreed')} (
                <Link to="/privacy-policy">{t('footer.privacy_policy')}</Link>,{' '}
                <Link to="/disclaimer">{t('disclaimer.title')}</Link>)
              </>
            }
            required
          />
          {form.errors.length > 0 && <Notice kind="error">{t('error.validation_failed')}</Notice>}
          <div className="form__actions">
            <button type="submit" className="button" disabled={form.submitting}>
              {t('registration.submit')}
            </button>
            <Link to="/login">{t('registration.login_instead')}</Link>
          </div>
        </div>
      </form>
    </section>
  );
}
