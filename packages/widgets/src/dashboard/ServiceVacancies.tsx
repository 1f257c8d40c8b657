import { useState } from 'react';
import type { Service, Vacancy } from '@poruch/core';
import { useWidget } from '../shared/WidgetContext.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { ConfirmButton } from './ConfirmButton.js';
import type { Dashboard } from './createDashboard.js';
import { VacancyEditor } from './VacancyEditor.js';

export interface ServiceVacanciesProps {
  service: Pick<Service, 'id' | 'name'>;
  /** The service's vacancies; undefined while they load. */
  vacancies: Vacancy[] | undefined;
  dashboard: Dashboard;
  /** The heading level of each vacancy's name: 3 where the list stands alone. Defaults to 4. */
  nameLevel?: 3 | 4;
}

/** One service's vacancies: add, edit, the open switch, and delete after a confirmation. */
export function ServiceVacancies({
  service,
  vacancies,
  dashboard,
  nameLevel = 4,
}: ServiceVacanciesProps) {
  const { t } = useWidget();
  const Name = nameLevel === 3 ? 'h3' : 'h4';
  // 'new', the id of the vacancy being edited, or null.
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <div className="vacancies">
      {editing === 'new' ? (
        <VacancyEditor
          t={t}
          onCancel={() => setEditing(null)}
          onSave={async (input) => {
            const ok = await dashboard.saveVacancy(service.id, input);
            if (ok) setEditing(null);
            return ok;
          }}
        />
      ) : (
        <p>
          <button type="button" className="button" part="button" onClick={() => setEditing('new')}>
            {t('vacancies.add')}
          </button>
        </p>
      )}
      {!vacancies && <StatusMessage kind="loading" text={t('widget.loading')} />}
      {vacancies?.length === 0 && editing !== 'new' && (
        <StatusMessage kind="empty" text={t('vacancies.empty')} />
      )}
      {vacancies && vacancies.length > 0 && (
        <ul className="vacancy-cards">
          {vacancies.map((v) =>
            editing === v.id ? (
              <li key={v.id}>
                <VacancyEditor
                  t={t}
                  vacancy={v}
                  onCancel={() => setEditing(null)}
                  onSave={async (input) => {
                    const ok = await dashboard.saveVacancy(service.id, input, v.id);
                    if (ok) setEditing(null);
                    return ok;
                  }}
                />
              </li>
            ) : (
              <li key={v.id} className="card" part="vacancy" data-vacancy-id={v.id}>
                <div className="service__head">
                  <Name className="vacancy__name">{v.name}</Name>
                  <span className={`badge ${v.isOpen ? 'badge--open' : ''}`}>
                    {t(v.isOpen ? 'vacancies.open' : 'vacancies.closed')}
                  </span>
                </div>
                <p className="muted">
                  {v.salary && <>{t('vacancies.salary', { salary: v.salary })} · </>}
                  {t('vacancies.experience', { experience: t(`experience.${v.experience}`) })}
                </p>
                {v.requirements && <p className="vacancy__text">{v.requirements}</p>}
                <div className="vacancy__actions">
                  <label className="reason">
                    <input
                      type="checkbox"
                      checked={v.isOpen}
                      onChange={(e) =>
                        void dashboard.setVacancyOpen(service.id, v, e.currentTarget.checked)
                      }
                    />
                    <span>{t('vacancies.toggle_open')}</span>
                  </label>
                  <button
                    type="button"
                    className="button button--secondary"
                    part="button"
                    aria-label={`${t('vacancies.edit')}: ${v.name}`}
                    onClick={() => setEditing(v.id)}
                  >
                    {t('common.edit')}
                  </button>
                  <ConfirmButton
                    text={t('common.delete')}
                    label={`${t('vacancies.delete')}: ${v.name}`}
                    title={t('vacancies.delete')}
                    message={t('vacancies.confirm_delete')}
                    onConfirm={() => void dashboard.deleteVacancy(service.id, v.id)}
                  />
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}
