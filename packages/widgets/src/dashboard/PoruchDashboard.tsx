import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Service, Vacancy } from '@poruch/core';
import {
  type Api,
  categoryLabelKey,
  confirmationLabel,
  countryNameKey,
  createApi,
} from '@poruch/core/lite';
import { ErrorState } from '../shared/ErrorState.js';
import { useWidget, WidgetContext } from '../shared/WidgetContext.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { countryNameMessages } from '../shared/messages/countryNameMessages.js';
import { experienceMessages } from '../shared/messages/experienceMessages.js';
import { fieldMessages } from '../shared/messages/fieldMessages.js';
import { flagMessages } from '../shared/messages/flagMessages.js';
import { homeMessages } from '../shared/messages/homeMessages.js';
import { reportFormMessages } from '../shared/messages/reportFormMessages.js';
import { reportReasonMessages } from '../shared/messages/reportReasonMessages.js';
import { serviceProfileMessages } from '../shared/messages/serviceProfileMessages.js';
import { successMessages } from '../shared/messages/successMessages.js';
import { vacanciesMessages } from '../shared/messages/vacanciesMessages.js';
import { validationMessages } from '../shared/messages/validationMessages.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { useConnector } from '../useConnector.js';
import { baseStyles } from '../ui/baseStyles.js';
import { UI_PARTS } from '../ui/parts.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { AddServiceForm } from './AddServiceForm.js';
import { createDashboard, type Dashboard } from './createDashboard.js';
import { dashboardMessages } from './dashboardMessages.js';
import { dashboardStyles } from './styles.js';
import { ConfirmButton } from './ConfirmButton.js';
import { DashboardOptionsContext, useDashboardOptions, type ConfirmFn } from './options.js';
import { ServiceVacancies } from './ServiceVacancies.js';

/** Which part of the dashboard is shown. */
export type DashboardView = 'all' | 'services' | 'vacancies' | 'add-service';

export interface PoruchDashboardProps extends WidgetBaseProps {
  /**
   * What it shows (React only; the element shows `all`):
   * - `all`: the services, each with its vacancies, and the add form (the default);
   * - `services`: the service cards only, for a host with its own heading and pages;
   * - `vacancies`: one service's vacancies (`serviceId`);
   * - `add-service`: the add form alone.
   */
  view?: DashboardView;
  /** The service of the `vacancies` view. */
  serviceId?: string;
  /**
   * The API client (React only). Defaults to one at `apiBase` that sends the session cookie and
   * the `x-xsrf-token` header.
   */
  api?: Api;
  /** Extra actions on each service card, e.g. the host's own edit link (React only). */
  renderServiceActions?: (service: Service) => ReactNode;
  /** Asks before a deletion (React only), e.g. the host's dialog. Defaults to asking in place. */
  confirm?: ConfirmFn;
  /**
   * Called with each success message key (`success.*`); also `poruch:notice`. With it the
   * widget leaves the message to the host (a toast) and shows none itself.
   */
  onNotice?: (detail: { key: string }) => void;
  /** Called with a service just created by the add form; also `poruch:service-created`. */
  onServiceCreated?: (service: Service) => void;
  /** Called when the add form is cancelled (`add-service` view); also `poruch:cancel`. */
  onCancel?: (detail: null) => void;
}

/** The `part`s of `<poruch-dashboard>`. */
export const DASHBOARD_PARTS = [
  ...UI_PARTS,
  'dashboard',
  'service',
  'service-form',
  'vacancy-form',
  'vacancy',
  'login-link',
] as const;

/** The translation namespaces the widget uses beyond common, error and widget. */
const DASHBOARD_MESSAGES = [
  categoryMessages,
  countryNameMessages,
  experienceMessages,
  fieldMessages,
  flagMessages,
  homeMessages,
  reportFormMessages,
  reportReasonMessages,
  serviceProfileMessages,
  successMessages,
  vacanciesMessages,
  validationMessages,
  dashboardMessages,
];

/**
 * `<poruch-dashboard>` as a React component: a logged-in partner's services and vacancies.
 * Only on the site's own origin, where the session cookie is first-party; embedded on another
 * origin it links to the site's login and dashboard instead and calls nothing. The site shows
 * its parts (`view`) inside its own pages.
 */
export function PoruchDashboard(props: PoruchDashboardProps) {
  const { renderServiceActions, confirm, onNotice } = props;
  const options = useMemo(
    () => ({ renderServiceActions, confirm, hostNotices: !!onNotice }),
    [renderServiceActions, confirm, onNotice],
  );
  return (
    <WidgetShell
      {...props}
      styles={baseStyles + dashboardStyles}
      parts={DASHBOARD_PARTS}
      handlers={props}
      messages={DASHBOARD_MESSAGES}
    >
      <DashboardOptionsContext.Provider value={options}>
        <DashboardRoot view={props.view ?? 'all'} serviceId={props.serviceId} api={props.api} />
      </DashboardOptionsContext.Provider>
    </WidgetShell>
  );
}

function DashboardRoot(props: {
  view: DashboardView;
  serviceId: string | undefined;
  api: Api | undefined;
}) {
  const ctx = useWidget();
  const injected = props.api;
  const value = useMemo(
    () => ({
      ...ctx,
      // The site's own origin: the session cookie goes with every call, and so does x-xsrf-token.
      api: injected ?? createApi({ baseUrl: ctx.siteBase, credentials: 'include' }),
    }),
    [ctx, injected],
  );
  return (
    <WidgetContext.Provider value={value}>
      {ctx.embedded && !injected ? (
        <SiteLinks />
      ) : (
        <OwnDashboard view={props.view} serviceId={props.serviceId} />
      )}
    </WidgetContext.Provider>
  );
}

/** On a foreign origin, or when logged out: links to the site's login and dashboard. */
function SiteLinks() {
  const { t, siteBase, setState } = useWidget();
  useEffect(() => setState('ready'), [setState]);
  return (
    <div className="dashboard card" part="dashboard">
      <h2>{t('dashboard.title')}</h2>
      <p>{t('dashboard.login_text')}</p>
      <p className="service__actions">
        <a
          className="button"
          part="button login-link"
          href={`${siteBase}login?back=${encodeURIComponent('/dashboard')}`}
        >
          {t('dashboard.open_login')}
        </a>
        <a className="button button--secondary" part="button" href={`${siteBase}dashboard`}>
          {t('dashboard.open_dashboard')}
        </a>
      </p>
    </div>
  );
}

function OwnDashboard({ view, serviceId }: { view: DashboardView; serviceId: string | undefined }) {
  const { api, t, lang, setState, emit } = useWidget();
  const { hostNotices } = useDashboardOptions();
  const [state, dashboard] = useConnector(() => createDashboard(api), [api]);
  const [adding, setAdding] = useState(view === 'add-service');

  useEffect(() => {
    if (view === 'add-service') setState('ready');
    else if (view === 'vacancies' && serviceId) void dashboard.loadVacancies(serviceId, true);
    else void dashboard.load();
  }, [dashboard, view, serviceId, setState]);
  useEffect(() => {
    if (view === 'add-service') return;
    if (state.status === 'logged-out') setState('ready');
    else setState(state.status === 'error' ? 'error' : state.status, state.error ?? undefined);
  }, [view, state.status, state.error, setState]);
  useEffect(() => {
    if (state.notice) emit('notice', { key: state.notice });
  }, [state.notice, state.noticeSeq, emit]);

  const notice = !hostNotices && state.notice && (
    <p className="notice" role="status">
      {t(state.notice)}
    </p>
  );
  const addForm = (
    <AddServiceForm
      api={api}
      t={t}
      lang={lang}
      onCancel={() => {
        setAdding(false);
        emit('cancel', null);
      }}
      onCreated={(s) => {
        dashboard.added(s);
        setAdding(false);
        emit('service-created', s);
      }}
    />
  );

  if (view === 'add-service') return addForm;
  if (state.status === 'logged-out') return <SiteLinks />;
  if (state.status === 'loading')
    return <StatusMessage kind="loading" text={t('widget.loading')} />;
  if (state.status === 'error' && !state.services.length && view !== 'vacancies')
    return <ErrorState error={state.error} onRetry={() => void dashboard.load()} />;

  if (view === 'vacancies') {
    const id = serviceId ?? '';
    const list = state.vacancies[id];
    if (state.status === 'error' && !list)
      return (
        <ErrorState error={state.error} onRetry={() => void dashboard.loadVacancies(id, true)} />
      );
    return (
      <div className="dashboard" part="dashboard">
        {notice}
        {state.error != null && <ErrorState error={state.error} />}
        <ServiceVacancies
          service={{ id, name: '' }}
          vacancies={list}
          dashboard={dashboard}
          nameLevel={3}
        />
      </div>
    );
  }

  return (
    <div className="dashboard" part="dashboard">
      {view === 'all' && <h2>{t('my_services.title')}</h2>}
      {notice}
      {state.error != null && <ErrorState error={state.error} />}
      {view === 'all' &&
        (adding ? (
          addForm
        ) : (
          <p>
            <button type="button" className="button" part="button" onClick={() => setAdding(true)}>
              {t('my_services.add_service')}
            </button>
          </p>
        ))}
      {state.services.length === 0 ? (
        <StatusMessage kind="empty" text={t('my_services.empty')} />
      ) : (
        <ul className="services">
          {state.services.map((s) => (
            <ServiceCard
              key={s.id}
              service={s}
              vacancies={state.vacancies[s.id]}
              dashboard={dashboard}
              withVacancies={view === 'all'}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function ServiceCard(props: {
  service: Service;
  vacancies: Vacancy[] | undefined;
  dashboard: Dashboard;
  /** Shows the vacancies button opening them in the card. */
  withVacancies: boolean;
}) {
  const { service, vacancies, dashboard, withVacancies } = props;
  const { t, lang } = useWidget();
  const { renderServiceActions } = useDashboardOptions();
  const [open, setOpen] = useState(false);
  // The yearly re-confirmation: once its mail went out, until the owner confirms.
  const reconfirm =
    service.status === 'approved' &&
    (service.reconfirmMailedAt !== null || service.confirmation !== 'current');
  return (
    <li className="card" part="service" data-service-id={service.id}>
      <div className="service__head">
        <h3>{service.name}</h3>
        <span className={`badge badge--${service.status}`}>
          {t('my_services.status')}: {t(`service_status.${service.status}`)}
        </span>
      </div>
      <p className="muted">
        {t(countryNameKey(service.countryCode))}
        {service.address && ` · ${service.address}`}
        {service.category && ` · ${t(categoryLabelKey(service.category))}`}
        {' · '}
        {t(service.showOnMap ? 'my_services.on_map' : 'my_services.not_on_map')}
      </p>
      {service.status === 'declined' && service.declineReason && (
        <p className="field__error">
          {t('my_services.declined_reason', { reason: service.declineReason })}
        </p>
      )}
      {service.status === 'approved' && (
        <p className="muted" data-confirmation={service.confirmation}>
          {confirmationLabel(t, lang, service)}
        </p>
      )}
      {reconfirm && (
        <p
          className={service.confirmation === 'lapsed' ? 'field__error' : 'notice'}
          part="reconfirm"
        >
          {t(`my_services.reconfirm_${service.confirmation}`)}
        </p>
      )}
      <div className="service__actions">
        {reconfirm && (
          <button
            type="button"
            className="button"
            part="button confirm-button"
            onClick={() => void dashboard.confirmService(service)}
          >
            {t('my_services.reconfirm_button')}
          </button>
        )}
        {renderServiceActions?.(service)}
        <button
          type="button"
          className="button button--secondary"
          part="button"
          onClick={() => void dashboard.setShowOnMap(service, !service.showOnMap)}
        >
          {t(service.showOnMap ? 'my_services.hide_from_map' : 'my_services.show_on_map')}
        </button>
        {withVacancies && (
          <button
            type="button"
            className="button button--secondary"
            part="button"
            aria-expanded={open}
            onClick={() => {
              if (!open && !vacancies) void dashboard.loadVacancies(service.id);
              setOpen(!open);
            }}
          >
            {t('my_services.vacancies')}
            {vacancies ? ` (${vacancies.length})` : ''}
          </button>
        )}
        <ConfirmButton
          text={t('common.delete')}
          label={`${t('my_services.delete_service')}: ${service.name}`}
          title={t('my_services.delete_service')}
          message={t('my_services.confirm_delete', { name: service.name })}
          onConfirm={() => void dashboard.deleteService(service.id)}
        />
      </div>
      {open && <ServiceVacancies service={service} vacancies={vacancies} dashboard={dashboard} />}
    </li>
  );
}
