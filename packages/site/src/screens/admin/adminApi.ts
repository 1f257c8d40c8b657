import type {
  Account,
  AdminCreate,
  AdminCreated,
  AdminRole,
  AdministratorList,
  AuditEntry,
  AdminService,
  ApiClient,
  Campaign,
  ClaimList,
  CampaignInput,
  Report,
  ReportPage,
  ReportStatus,
  ReviewDuplicates,
  ServicePage,
} from '@poruch/core';

/** A page of `GET admin/audit`. */
export interface AuditPage {
  items: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/** A page of `GET admin/services`: administrators see every status and the owner. */
type AdminServicePage = Omit<ServicePage, 'items'> & { items: AdminService[] };

/** The administrators' calls (`admin/…`). */
export function adminApi(api: ApiClient) {
  return {
    services: (query: Record<string, string>, signal?: AbortSignal) =>
      api.get<AdminServicePage>('admin/services', { query, ...(signal ? { signal } : {}) }),
    service: (id: string, signal?: AbortSignal) =>
      api.get<AdminService>(`admin/services/${id}`, signal ? { signal } : {}),
    approve: (id: string) => api.send<AdminService>('POST', `admin/services/${id}/approve`),
    decline: (id: string, reason: string) =>
      api.send<AdminService>('POST', `admin/services/${id}/decline`, { reason }),
    setPartner: (id: string, isPartner: boolean) =>
      api.send<AdminService>('PUT', `admin/services/${id}/partner`, { isPartner }),
    reports: (status: ReportStatus | '', page: number, signal?: AbortSignal) =>
      api.get<ReportPage>('admin/reports', {
        query: { ...(status ? { status } : {}), page },
        ...(signal ? { signal } : {}),
      }),
    resolveReport: (id: string) => api.send<Report>('POST', `admin/reports/${id}/resolve`),
    recipients: (input: Pick<CampaignInput, 'statuses' | 'categories'>, signal?: AbortSignal) =>
      api.send<{ count: number }>('POST', 'admin/campaigns/recipients', input, {
        silent: true,
        ...(signal ? { signal } : {}),
      }),
    sendCampaign: (input: CampaignInput) => api.send<Campaign>('POST', 'admin/campaigns', input),
    campaign: (id: string) => api.get<Campaign>(`admin/campaigns/${id}`),
    addAdministrator: (input: AdminCreate) =>
      api.send<AdminCreated>('POST', 'admin/administrators', input),
    administrators: (signal?: AbortSignal) =>
      api.get<AdministratorList>('admin/administrators', signal ? { signal } : {}),
    setRole: (id: string, role: AdminRole) =>
      api.send<Account>('PUT', `admin/administrators/${id}/role`, { role }),
    duplicates: (id: string, signal?: AbortSignal) =>
      api.get<ReviewDuplicates>(`admin/services/${id}/duplicates`, signal ? { signal } : {}),
    claims: (page: number, signal?: AbortSignal) =>
      api.get<ClaimList>('admin/claims', { query: { page }, ...(signal ? { signal } : {}) }),
    resolveClaim: (serviceId: string, candidateId: string, verb: 'approve' | 'decline') =>
      api.send<{ status: boolean }>('POST', `admin/claims/${serviceId}/${candidateId}/${verb}`),
    audit: (query: Record<string, string>, signal?: AbortSignal) =>
      api.get<AuditPage>('admin/audit', { query, ...(signal ? { signal } : {}) }),
  };
}
