import {
  serviceSchema,
  vacancySchema,
  type ApiClient,
  type ServiceInput,
  type VacancyInput,
} from '@poruch/core';

const services = serviceSchema.array();
const vacancies = vacancySchema.array();

/** The partner's calls (`my/…`): own services and their vacancies. */
export function myApi(api: ApiClient) {
  return {
    services: (signal?: AbortSignal) =>
      api.request('GET', 'my/services', { schema: services, ...(signal ? { signal } : {}) }),
    createService: (input: ServiceInput) =>
      api.request('POST', 'my/services', { json: input, schema: serviceSchema }),
    updateService: (id: string, input: ServiceInput) =>
      api.request('PUT', `my/services/${id}`, { json: input, schema: serviceSchema }),
    deleteService: (id: string) => api.request('DELETE', `my/services/${id}`),
    showOnMap: (id: string, showOnMap: boolean) =>
      api.request('PUT', `my/services/${id}/map`, { json: { showOnMap }, schema: serviceSchema }),
    vacancies: (serviceId: string, signal?: AbortSignal) =>
      api.request('GET', `my/services/${serviceId}/vacancies`, {
        schema: vacancies,
        ...(signal ? { signal } : {}),
      }),
    createVacancy: (serviceId: string, input: VacancyInput) =>
      api.request('POST', `my/services/${serviceId}/vacancies`, {
        json: input,
        schema: vacancySchema,
      }),
    updateVacancy: (id: string, input: VacancyInput) =>
      api.request('PUT', `my/vacancies/${id}`, { json: input, schema: vacancySchema }),
    setVacancyOpen: (id: string, isOpen: boolean) =>
      api.request('PUT', `my/vacancies/${id}/open`, { json: { isOpen }, schema: vacancySchema }),
    deleteVacancy: (id: string) => api.request('DELETE', `my/vacancies/${id}`),
  };
}
