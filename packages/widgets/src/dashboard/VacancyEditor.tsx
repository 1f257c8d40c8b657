import { useState } from 'react';
import {
  EXPERIENCE_KEYS,
  vacancyInputSchema,
  zodErrorToFieldErrors,
  type Experience,
  type FieldError,
  type Translate,
  type Vacancy,
  type VacancyInput,
} from '@poruch/core';
import { Checkbox, Field } from '../ui/Field.js';
import { messagesFor } from '../ui/fieldErrors.js';

export interface VacancyEditorProps {
  t: Translate;
  /** The vacancy to edit; a new one without it. */
  vacancy?: Vacancy;
  onSave: (input: VacancyInput) => Promise<boolean>;
  onCancel: () => void;
}

/** The add/edit vacancy form, validated with core's vacancyInputSchema. */
export function VacancyEditor({ t, vacancy, onSave, onCancel }: VacancyEditorProps) {
  const [values, setValues] = useState({
    name: vacancy?.name ?? '',
    requirements: vacancy?.requirements ?? '',
    description: vacancy?.description ?? '',
    salary: vacancy?.salary ?? '',
    experience: (vacancy?.experience ?? 'any') as Experience,
    isOpen: vacancy?.isOpen ?? true,
  });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const set = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = vacancyInputSchema.safeParse(values);
    if (!parsed.success) return setErrors(zodErrorToFieldErrors(parsed.error));
    setErrors([]);
    await onSave(parsed.data);
  };
  return (
    <form className="form card" noValidate onSubmit={(e) => void submit(e)} part="vacancy-form">
      <h3>{t(vacancy ? 'vacancies.edit' : 'vacancies.add')}</h3>
      <Field label={t('vacancies.name')} errors={messagesFor(t, errors, 'name')}>
        <input value={values.name} onChange={(e) => set({ name: e.currentTarget.value })} />
      </Field>
      <Field label={t('field.experience')}>
        <select
          value={values.experience}
          onChange={(e) => set({ experience: e.currentTarget.value as Experience })}
        >
          {EXPERIENCE_KEYS.map((k) => (
            <option key={k} value={k}>
              {t(`experience.${k}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('field.salary')} errors={messagesFor(t, errors, 'salary')}>
        <input value={values.salary} onChange={(e) => set({ salary: e.currentTarget.value })} />
      </Field>
      <Field label={t('field.requirements')} errors={messagesFor(t, errors, 'requirements')}>
        <textarea
          value={values.requirements}
          onChange={(e) => set({ requirements: e.currentTarget.value })}
        />
      </Field>
      <Field label={t('vacancies.duties')} errors={messagesFor(t, errors, 'description')}>
        <textarea
          value={values.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
        />
      </Field>
      <Checkbox
        label={t('vacancies.toggle_open')}
        checked={values.isOpen}
        onChange={(isOpen) => set({ isOpen })}
      />
      <div className="service__actions">
        <button type="submit" className="button" part="button">
          {t('common.save')}
        </button>
        <button type="button" className="button button--secondary" part="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
