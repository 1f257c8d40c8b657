import { useState } from 'react';
import {
  EXPERIENCE_KEYS,
  LIMITS,
  vacancyInputSchema,
  type Service,
  type Vacancy,
  type VacancyInput,
} from '@poruch/core';
import { useApp } from '../../app/context.js';
import { CheckboxField, SelectField, TextField } from '../../forms/fields.js';
import { StateView } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { useResource } from '../../forms/useResource.js';
import { myApi } from './myApi.js';

const emptyVacancy = (): VacancyInput => ({
  name: '',
  requirements: '',
  description: '',
  salary: '',
  experience: 'any',
  isOpen: true,
});

/** The vacancies of one of my services: add, edit, delete and the open toggle. */
export function VacanciesPanel({ service }: { service: Service }) {
  const { t, api, confirm, showToast } = useApp();
  const my = myApi(api);
  const list = useResource((signal) => my.vacancies(service.id, signal), [service.id]);
  // 'new', a vacancy id being edited, or null.
  const [editing, setEditing] = useState<string | null>(null);
  const ok = (key: string) =>
    showToast({ severity: 'success', summary: t('success.summary'), detail: t(key) });

  const toggle = async (v: Vacancy) => {
    const set = (isOpen: boolean, updated?: Vacancy) =>
      list.setData((items) =>
        items.map((x) => (x.id === v.id ? (updated ?? { ...x, isOpen }) : x)),
      );
    // The switch moves at once; it moves back when the server says no.
    set(!v.isOpen);
    try {
      set(!v.isOpen, await my.setVacancyOpen(v.id, !v.isOpen));
      ok('success.vacancy_updated');
    } catch {
      set(v.isOpen);
    }
  };

  const remove = async (v: Vacancy) => {
    const answer = await confirm({
      header: t('vacancies.delete'),
      message: t('vacancies.confirm_delete'),
      acceptLabel: t('common.delete'),
      rejectLabel: t('common.cancel'),
    });
    if (answer !== 'accept') return;
    try {
      await my.deleteVacancy(v.id);
      list.setData((items) => items.filter((x) => x.id !== v.id));
      ok('success.vacancy_deleted');
    } catch {
      // The client has shown the error.
    }
  };

  return (
    <section className="form__section" id="vacancies" aria-labelledby="vacancies-title">
      <div className="section-head">
        <h2 id="vacancies-title">{t('vacancies.title')}</h2>
        {editing !== 'new' && (
          <button type="button" className="button" onClick={() => setEditing('new')}>
            {t('vacancies.add')}
          </button>
        )}
      </div>
      {editing === 'new' && (
        <VacancyForm
          initial={emptyVacancy()}
          title={t('vacancies.add')}
          onCancel={() => setEditing(null)}
          onSave={async (input) => {
            const created = await my.createVacancy(service.id, input);
            list.setData((items) => [created, ...items]);
            setEditing(null);
            ok('success.vacancy_created');
          }}
        />
      )}
      {list.status === 'loading' && !list.data && (
        <StateView state="loading" loadingText={t('app.loading')} />
      )}
      {list.status === 'error' && (
        <StateView
          state="error"
          errorText={t('dashboard.load_failed')}
          retryText={t('common.retry')}
          onRetry={list.reload}
        />
      )}
      {list.data?.length === 0 && editing !== 'new' && (
        <p className="state">{t('vacancies.empty')}</p>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="item-list">
          {list.data.map((v) =>
            editing === v.id ? (
              <li key={v.id}>
                <VacancyForm
                  initial={{
                    name: v.name,
                    requirements: v.requirements,
                    description: v.description,
                    salary: v.salary,
                    experience: v.experience,
                    isOpen: v.isOpen,
                  }}
                  title={t('vacancies.edit')}
                  onCancel={() => setEditing(null)}
                  onSave={async (input) => {
                    const updated = await my.updateVacancy(v.id, input);
                    list.setData((items) => items.map((x) => (x.id === v.id ? updated : x)));
                    setEditing(null);
                    ok('success.vacancy_updated');
                  }}
                />
              </li>
            ) : (
              <li key={v.id} className="card item" data-vacancy-id={v.id}>
                <div className="item__head">
                  <h3 className="item__title">{v.name}</h3>
                  <span className={`badge ${v.isOpen ? 'badge--approved' : ''}`}>
                    {v.isOpen ? t('vacancies.open') : t('vacancies.closed')}
                  </span>
                </div>
                <p className="item__meta">
                  {v.salary && <>{t('vacancies.salary', { salary: v.salary })} · </>}
                  {t('vacancies.experience', { experience: t(`experience.${v.experience}`) })}
                </p>
                {v.requirements && <p className="item__text">{v.requirements}</p>}
                <div className="item__actions">
                  <CheckboxField
                    id={`vacancy-open-${v.id}`}
                    label={t('vacancies.toggle_open')}
                    checked={v.isOpen}
                    onChange={() => void toggle(v)}
                  />
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => setEditing(v.id)}
                    aria-label={`${t('vacancies.edit')}: ${v.name}`}
                  >
                    {t('common.edit')}
                  </button>
                  <button
                    type="button"
                    className="button button--small button--danger"
                    onClick={() => void remove(v)}
                    aria-label={`${t('vacancies.delete')}: ${v.name}`}
                  >
                    {t('common.delete')}
                  </button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

function VacancyForm({
  initial,
  title,
  onSave,
  onCancel,
}: {
  initial: VacancyInput;
  title: string;
  onSave: (input: VacancyInput) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const form = useForm('vacancy', initial, t);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(vacancyInputSchema);
    if (!input) return;
    await form.run(() => onSave(input));
  };
  return (
    <form className="card form__section" onSubmit={submit} noValidate aria-label={title}>
      <h3 className="item__title">{title}</h3>
      <TextField
        {...form.bind('name')}
        label={t('vacancies.name')}
        required
        maxLength={LIMITS.nameMax}
      />
      <TextField
        {...form.bind('requirements')}
        label={t('field.requirements')}
        rows={3}
        maxLength={LIMITS.descriptionMax}
      />
      <TextField
        {...form.bind('description')}
        label={t('vacancies.duties')}
        rows={3}
        maxLength={LIMITS.descriptionMax}
      />
      <div className="form__grid">
        <TextField {...form.bind('salary')} label={t('field.salary')} maxLength={LIMITS.nameMax} />
        <SelectField
          {...form.bind('experience')}
          label={t('field.experience')}
          options={EXPERIENCE_KEYS.map((k) => ({ value: k, label: t(`experience.${k}`) }))}
        />
      </div>
      <CheckboxField {...form.bindCheck('isOpen')} label={t('field.isOpen')} />
      <div className="form__actions">
        <button type="submit" className="button" disabled={form.submitting}>
          {t('common.save')}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
