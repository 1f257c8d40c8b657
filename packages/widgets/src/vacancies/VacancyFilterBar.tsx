import { EXPERIENCE_KEYS, type Translate } from '@poruch/core/lite';
import { Checkbox, Field } from '../ui/Field.js';
import type { ExperienceFilter, VacancyFilters } from './createVacancyBoard.js';

export interface VacancyFilterBarProps {
  filters: VacancyFilters;
  t: Translate;
  onChange: (patch: Partial<VacancyFilters>) => void;
}

/** Text search, the experience level and the open-only switch of the vacancy board. */
export function VacancyFilterBar({ filters, t, onChange }: VacancyFilterBarProps) {
  return (
    <form
      className="row filters"
      part="filters"
      role="search"
      aria-label={t('vacancies.search_title')}
      onSubmit={(e) => e.preventDefault()}
    >
      <Field label={t('home.vacancy_search')}>
        <input
          type="search"
          name="q"
          value={filters.q}
          maxLength={200}
          placeholder={t('home.vacancy_search_placeholder')}
          onChange={(e) => onChange({ q: e.currentTarget.value })}
        />
      </Field>
      <Field label={t('field.experience')}>
        <select
          name="experience"
          value={filters.experience}
          onChange={(e) => onChange({ experience: e.currentTarget.value as ExperienceFilter })}
        >
          <option value="all">{t('vacancies.experience_all')}</option>
          {EXPERIENCE_KEYS.map((k) => (
            <option key={k} value={k}>
              {t(`experience.${k}`)}
            </option>
          ))}
        </select>
      </Field>
      <Checkbox
        label={t('vacancies.open_only')}
        checked={filters.openOnly}
        onChange={(openOnly) => onChange({ openOnly })}
      />
    </form>
  );
}
