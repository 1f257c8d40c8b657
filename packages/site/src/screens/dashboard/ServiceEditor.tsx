import { useEffect } from 'react';
import type { Service } from '@poruch/core';
import { emptyServiceValues, serviceToValues, validateService } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { ServiceFields } from '../../forms/ServiceFields.js';
import { useAddressCheck } from '../../forms/useAddressCheck.js';
import { useForm, type FormController } from '../../forms/useForm.js';
import { useResource } from '@poruch/widgets';
import { Link, useNavigate } from '../../router/index.js';
import { myApi } from './myApi.js';
import { VacanciesPanel } from './VacanciesPanel.js';

/** Add service (`/dashboard/services/new`) or edit one (`/dashboard/services/:id`) with its vacancies. */
export function ServiceEditor({ id }: { id?: string }) {
  const { t, api } = useApp();
  const my = myApi(api);
  const found = useResource(
    async (signal) => (id ? ((await my.services(signal)).find((s) => s.id === id) ?? null) : null),
    [id],
  );
  if (id && found.status === 'loading')
    return <StateView state="loading" loadingText={t('app.loading')} />;
  if (id && found.status === 'error')
    return (
      <StateView
        state="error"
        errorText={t('dashboard.load_failed')}
        retryText={t('common.retry')}
        onRetry={found.reload}
      />
    );
  if (id && found.status === 'ready' && !found.data)
    return (
      <div className="card state">
        <p>{t('error.resource_was_not_found')}</p>
        <Link to="/dashboard/services">{t('my_services.back')}</Link>
      </div>
    );
  const service = found.status === 'ready' ? found.data : null;
  return (
    <>
      <ServiceForm key={service?.id ?? 'new'} service={service} />
      {service && <VacanciesPanel service={service} />}
    </>
  );
}

function ServiceForm({ service }: { service: Service | null }) {
  const { t, api, showToast } = useApp();
  const navigate = useNavigate();
  const my = myApi(api);
  const form = useForm('service', service ? serviceToValues(service) : emptyServiceValues(), t);
  const address = useAddressCheck(api, form as FormController<object>, '');

  useEffect(() => {
    if (window.location.hash === '#vacancies')
      document.getElementById('vacancies')?.scrollIntoView();
  }, []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const addressErrors = await address.ensure();
    const { data, errors } = validateService(form.values, addressErrors);
    if (!data) {
      form.setErrors(errors);
      return;
    }
    const saved = await form.run(() =>
      service ? my.updateService(service.id, data) : my.createService(data),
    );
    if (!saved) return;
    showToast({
      severity: 'success',
      summary: t('success.summary'),
      detail: t(service ? 'success.service_updated' : 'success.service_created'),
    });
    navigate(service ? '/dashboard/services' : `/dashboard/services/${saved.id}`);
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="service-title">
      <div className="section-head">
        <h1 id="service-title">
          {service ? t('my_services.edit_service') : t('add_service.title')}
        </h1>
        <Link to="/dashboard/services">{t('my_services.back')}</Link>
      </div>
      {service && (
        <Notice kind="warn">
          <p>{t('my_services.edit_notice')}</p>
          <p>
            {t('my_services.status')}: {t(`service_status.${service.status}`)}
          </p>
        </Notice>
      )}
      <div className="card form__section">
        <ServiceFields
          form={form as FormController<object>}
          prefix=""
          address={address}
          checkDuplicates={!service}
        />
      </div>
      {form.errors.length > 0 && <Notice kind="error">{t('error.validation_failed')}</Notice>}
      <div className="form__actions">
        <button type="submit" className="button" disabled={form.submitting}>
          {service ? t('common.save') : t('add_service.submit')}
        </button>
        <Link to="/dashboard/services">{t('common.cancel')}</Link>
      </div>
    </form>
  );
}
