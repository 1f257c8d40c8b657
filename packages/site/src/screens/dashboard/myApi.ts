import type { ApiClient, Service, ServiceInput } from '@poruch/core';

/**
 * The partner's calls the site's service form makes (`my/…`); the lists, the map switch, the
 * deletion and the vacancies are `<poruch-dashboard>`'s.
 */
export function myApi(api: ApiClient) {
  return {
    services: (signal?: AbortSignal) => api.get<Service[]>('my/services', signal ? { signal } : {}),
    createService: (input: ServiceInput) => api.send<Service>('POST', 'my/services', input),
    updateService: (id: string, input: ServiceInput) =>
      api.send<Service>('PUT', `my/services/${id}`, input),
  };
}
