import type { Reconfirmed, Service, Vacancy, VacancyInput } from '@poruch/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type Api, isAbort, isApiError } from '@poruch/core/lite';

export interface DashboardState {
  status: 'loading' | 'ready' | 'error' | 'logged-out';
  services: Service[];
  /** Vacancies by service id, once a service's list is opened. */
  vacancies: Record<string, Vacancy[]>;
  /** The failure of the last call, or null. */
  error: unknown;
  /** A success message key (`success.*`) of the last change, or null. */
  notice: string | null;
  /** Counts the notices, so the same message twice is told twice. */
  noticeSeq: number;
}

export interface Dashboard {
  readonly store: StoreApi<DashboardState>;
  load(): Promise<void>;
  setShowOnMap(service: Service, showOnMap: boolean): Promise<void>;
  /** Confirms an approved service is still active (the yearly re-confirmation). */
  confirmService(service: Service): Promise<void>;
  /**
   * Loads a service's vacancies. `alone`: they are all that is shown (no `load()`), so the
   * status follows this call.
   */
  loadVacancies(serviceId: string, alone?: boolean): Promise<void>;
  saveVacancy(serviceId: string, input: VacancyInput, vacancyId?: string): Promise<boolean>;
  setVacancyOpen(serviceId: string, vacancy: Vacancy, isOpen: boolean): Promise<void>;
  deleteVacancy(serviceId: string, vacancyId: string): Promise<void>;
  deleteService(serviceId: string): Promise<void>;
  /** Adds a service just created by the add form. */
  added(service: Service): void;
  destroy(): void;
}

/**
 * A logged-in partner's dashboard: `GET my/services` (with status and decline reason), show on
 * or hide from the map, and each service's vacancies (add, edit, open toggle, delete). All
 * calls go through the credentialed client; a 401 means "log in on the site".
 */
export function createDashboard(api: Api): Dashboard {
  const store = createStore<DashboardState>(() => ({
    status: 'loading',
    services: [],
    vacancies: {},
    error: null,
    notice: null,
    noticeSeq: 0,
  }));
  const controller = new AbortController();
  const { signal } = controller;
  /** The number of the latest open switch of each vacancy. */
  const toggles = new Map<string, number>();

  /** Runs a change; on failure keeps the state and shows the error. */
  const change = async <T>(run: () => Promise<T>, notice: string): Promise<T | undefined> => {
    store.setState({ error: null, notice: null });
    try {
      const result = await run();
      store.setState((s) => ({ notice, noticeSeq: s.noticeSeq + 1 }));
      return result;
    } catch (e) {
      if (!signal.aborted && !isAbort(e)) store.setState({ error: e });
      return undefined;
    }
  };

  const setVacancies = (serviceId: string, fn: (list: Vacancy[]) => Vacancy[]) =>
    store.setState((s) => ({
      vacancies: { ...s.vacancies, [serviceId]: fn(s.vacancies[serviceId] ?? []) },
    }));

  return {
    store,
    async load() {
      store.setState({ status: 'loading', error: null });
      try {
        const services = await api.get<Service[]>('my/services', { signal });
        store.setState({ status: 'ready', services });
      } catch (e) {
        if (signal.aborted || isAbort(e)) return;
        const loggedOut = isApiError(e) && (e.status === 401 || e.status === 403);
        store.setState({ status: loggedOut ? 'logged-out' : 'error', error: loggedOut ? null : e });
      }
    },
    async setShowOnMap(service, showOnMap) {
      const updated = await change(
        () => api.send<Service>('PUT', `my/services/${service.id}/map`, { showOnMap }, { signal }),
        showOnMap ? 'success.service_shown_on_map' : 'success.service_removed_from_map',
      );
      if (updated)
        store.setState((s) => ({
          services: s.services.map((x) => (x.id === updated.id ? updated : x)),
        }));
    },
    async confirmService(service) {
      const done = await change(
        () => api.send<Reconfirmed>('POST', `my/services/${service.id}/confirm`, {}, { signal }),
        'success.service_confirmed',
      );
      if (done)
        store.setState((s) => ({
          services: s.services.map((x) =>
            x.id === done.id
              ? {
                  ...x,
                  confirmedAt: done.confirmedAt,
                  reconfirmMailedAt: null,
                  confirmation: 'current' as const,
                }
              : x,
          ),
        }));
    },
    async loadVacancies(serviceId, alone = false) {
      if (alone) store.setState({ status: 'loading', error: null });
      try {
        const list = await api.get<Vacancy[]>(`my/services/${serviceId}/vacancies`, { signal });
        setVacancies(serviceId, () => list);
        if (alone) store.setState({ status: 'ready' });
      } catch (e) {
        if (signal.aborted || isAbort(e)) return;
        const loggedOut = alone && isApiError(e) && (e.status === 401 || e.status === 403);
        if (loggedOut) store.setState({ status: 'logged-out', error: null });
        else store.setState({ error: e, ...(alone ? { status: 'error' as const } : {}) });
      }
    },
    async saveVacancy(serviceId, input, vacancyId) {
      const saved = await change(
        () =>
          vacancyId
            ? api.send<Vacancy>('PUT', `my/vacancies/${vacancyId}`, input, { signal })
            : api.send<Vacancy>('POST', `my/services/${serviceId}/vacancies`, input, { signal }),
        vacancyId ? 'success.vacancy_updated' : 'success.vacancy_created',
      );
      if (!saved) return false;
      setVacancies(serviceId, (list) =>
        vacancyId ? list.map((v) => (v.id === saved.id ? saved : v)) : [saved, ...list],
      );
      return true;
    },
    async setVacancyOpen(serviceId, vacancy, isOpen) {
      const put = (next: (v: Vacancy) => Vacancy) =>
        setVacancies(serviceId, (list) => list.map((v) => (v.id === vacancy.id ? next(v) : v)));
      // The switch moves at once; it moves back when the server says no. Only the answer to the
      // latest switch counts: a slower earlier one must not undo a later click.
      const seq = (toggles.get(vacancy.id) ?? 0) + 1;
      toggles.set(vacancy.id, seq);
      put((v) => ({ ...v, isOpen }));
      const saved = await change(
        () => api.send<Vacancy>('PUT', `my/vacancies/${vacancy.id}/open`, { isOpen }, { signal }),
        'success.vacancy_updated',
      );
      if (toggles.get(vacancy.id) === seq) put((v) => saved ?? { ...v, isOpen: !isOpen });
    },
    async deleteVacancy(serviceId, vacancyId) {
      const ok = await change(
        () => api.send('DELETE', `my/vacancies/${vacancyId}`, undefined, { signal }),
        'success.vacancy_deleted',
      );
      if (ok !== undefined)
        setVacancies(serviceId, (list) => list.filter((v) => v.id !== vacancyId));
    },
    async deleteService(serviceId) {
      const ok = await change(
        () => api.send('DELETE', `my/services/${serviceId}`, undefined, { signal }),
        'success.service_deleted',
      );
      if (ok !== undefined)
        store.setState((s) => ({ services: s.services.filter((x) => x.id !== serviceId) }));
    },
    added(service) {
      store.setState((s) => ({
        services: [service, ...s.services],
        notice: 'success.service_created',
        noticeSeq: s.noticeSeq + 1,
      }));
    },
    destroy: () => controller.abort(),
  };
}
