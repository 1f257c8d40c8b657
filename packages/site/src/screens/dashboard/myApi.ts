import { serviceSchema, type ApiClient, type ServiceInput } from '@poruch/core';

const services = serviceSchema.array();

/**
 * The partner's calls the site's service form makes (`my/…`); the lists, the map switch, the
 * deletion and the vacancies are `<poruch-dashboard>`'s.
 */
export function myApi(api: ApiClient) {
  return {
    services: (signal?: AbortSignal) =>
      api.request('GET', 'my/services', { schema: services, ...(signal ? { signal } : {}) }),
    createService: (input: ServiceInput) =>
      api.request('POST', 'my/services', { json: input, schema: serviceSchema }),
    updateService: (id: string, input: ServiceInput) =>
      api.request('PUT', `my/services/${id}`, { json: input, schema: serviceSchema }),
  };
}
