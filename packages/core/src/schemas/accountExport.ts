import { z } from 'zod';
import { accountSchema, localeSchema } from './account.js';
import { reportReasonSchema, reportStatusSchema } from './report.js';
import { serviceSchema } from './service.js';
import { vacancySchema } from './vacancy.js';

/**
 * `GET account/export`: everything Poruch keeps about the logged-in account, as one JSON file
 * (GDPR art. 15 and 20). No secrets: no password hash, session tokens, push keys or one-time
 * passwords; no other person's data (who marked a service used, who reported it).
 */
export const accountExportSchema = z.object({
  /** Format version of this document. */
  version: z.literal(1),
  exportedAt: z.string(),
  account: accountSchema.extend({
    unsubscribed: z.boolean(),
    termsAgreedAt: z.string().nullable(),
    updatedAt: z.string(),
  }),
  services: z.array(serviceSchema),
  /** Vacancies of every service of the account, open and closed. */
  vacancies: z.array(vacancySchema),
  /** Reports the account filed while logged in. */
  reports: z.array(
    z.object({
      id: z.string(),
      serviceId: z.string().nullable(),
      reason: reportReasonSchema,
      description: z.string(),
      status: reportStatusSchema,
      createdAt: z.string(),
      resolvedAt: z.string().nullable(),
    }),
  ),
  /** "I have used this service" marks on the account's services (when, not who). */
  usedMarks: z.array(z.object({ serviceId: z.string(), createdAt: z.string() })),
  /** Browsers subscribed to push notifications (the endpoint, never the keys). */
  pushSubscriptions: z.array(
    z.object({ id: z.string(), endpoint: z.string(), createdAt: z.string() }),
  ),
  /** Mail to the account's address: queued, sent or failed. */
  mail: z.array(
    z.object({
      id: z.string(),
      template: z.string(),
      locale: localeSchema,
      status: z.string(),
      /** What the mail was made from; empty for mails that carried a secret. */
      payload: z.record(z.string(), z.unknown()),
      createdAt: z.string(),
      sentAt: z.string().nullable(),
    }),
  ),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
