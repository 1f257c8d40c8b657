import {
  adminCreatedSchema,
  adminServiceSchema,
  campaignSchema,
  pageOf,
  reportPageSchema,
  reportSchema,
  type AdminCreate,
  type ApiClient,
  type CampaignInput,
  type ReportStatus,
} from '@poruch/core';

const servicePage = pageOf(adminServiceSchema);
/** `{ count }` of `POST admin/campaigns/recipients` (zod is reached through core's schemas). */
const recipientCount = campaignSchema.pick({}).extend({ count: campaignSchema.shape.queued });

/** The administrators' calls (`admin/…`). */
export function adminApi(api: ApiClient) {
  return {
    services: (query: Record<string, string>, signal?: AbortSignal) =>
      api.request('GET', 'admin/services', {
        searchParams: query,
        schema: servicePage,
        ...(signal ? { signal } : {}),
      }),
    service: (id: string, signal?: AbortSignal) =>
      api.request('GET', `admin/services/${id}`, {
        schema: adminServiceSchema,
        ...(signal ? { signal } : {}),
      }),
    approve: (id: string) =>
      api.request('POST', `admin/services/${id}/approve`, { schema: adminServiceSchema }),
    decline: (id: string, reason: string) =>
      api.request('POST', `admin/services/${id}/decline`, {
        json: { reason },
        schema: adminServiceSchema,
      }),
    setPartner: (id: string, isPartner: boolean) =>
      api.request('PUT', `admin/services/${id}/partner`, {
        json: { isPartner },
        schema: adminServiceSchema,
      }),
    reports: (status: ReportStatus | '', page: number, signal?: AbortSignal) =>
      api.request('GET', 'admin/reports', {
        searchParams: { ...(status ? { status } : {}), page },
        schema: reportPageSchema,
        ...(signal ? { signal } : {}),
      }),
    resolveReport: (id: string) =>
      api.request('POST', `admin/reports/${id}/resolve`, { schema: reportSchema }),
    recipients: (input: Pick<CampaignInput, 'statuses' | 'categories'>, signal?: AbortSignal) =>
      api.request('POST', 'admin/campaigns/recipients', {
        json: input,
        schema: recipientCount,
        silent: true,
        ...(signal ? { signal } : {}),
      }),
    sendCampaign: (input: CampaignInput) =>
      api.request('POST', 'admin/campaigns', { json: input, schema: campaignSchema }),
    campaign: (id: string) =>
      api.request('GET', `admin/campaigns/${id}`, { schema: campaignSchema }),
    addAdministrator: (input: AdminCreate) =>
      api.request('POST', 'admin/administrators', { json: input, schema: adminCreatedSchema }),
  };
}
