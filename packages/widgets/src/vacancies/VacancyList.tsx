import type { Vacancy, VacancyHit } from '@poruch/core';
import { categoryLabelKey, countryNameKey, type Translate } from '@poruch/core/lite';
import { Flag } from '../ui/Flag.js';

export interface VacancyListProps {
  /** Vacancies; with their employer (search results) or without (one service's profile). */
  items: readonly (Vacancy & { service?: VacancyHit['service'] })[];
  t: Translate;
  /** Where the flag SVGs are served. */
  flagBase: string;
  /** Hide the employer line: the partner embed shows one employer's vacancies. */
  hideEmployer?: boolean;
  /** Heading level of each vacancy's name. Defaults to 3. */
  headingLevel?: 2 | 3;
}

/** The vacancies of a page as cards: name, employer, country, experience, salary, texts. */
export function VacancyList(props: VacancyListProps) {
  const { items, t, flagBase, hideEmployer, headingLevel = 3 } = props;
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="vacancy-list" part="list">
      {items.map((v) => (
        <li key={v.id} className="card vacancy" part="vacancy">
          <div className="vacancy__head">
            <H className="vacancy__name">{v.name}</H>
            <span className={`badge ${v.isOpen ? 'badge--open' : ''}`}>
              {t(v.isOpen ? 'vacancies.open' : 'vacancies.closed')}
            </span>
          </div>
          {v.service && (
            <p className="vacancy__meta muted">
              {!hideEmployer && (
                <span>
                  {t('vacancies.employer')}: <strong>{v.service.name}</strong>
                </span>
              )}
              <Flag
                code={v.service.countryCode}
                name={t(countryNameKey(v.service.countryCode))}
                base={flagBase}
              />
              {v.service.category && <span>{t(categoryLabelKey(v.service.category))}</span>}
            </p>
          )}
          <p className="vacancy__facts">
            <span>
              {t('vacancies.experience', { experience: t(`experience.${v.experience}`) })}
            </span>
            {v.salary && <span>{t('vacancies.salary', { salary: v.salary })}</span>}
          </p>
          {v.description && <p className="vacancy__text">{v.description}</p>}
          {v.requirements && (
            <p className="vacancy__text">
              <strong>{t('field.requirements')}:</strong> {v.requirements}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
