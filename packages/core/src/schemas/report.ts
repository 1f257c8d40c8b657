import { z } from 'zod';
import { LIMITS, optionalText, text } from '../validation.js';
import { REPORT_REASONS } from '../keys.js';

export { REPORT_REASONS, type ReportReason } from '../keys.js';
export const reportReasonSchema = z.enum(REPORT_REASONS);

export const REPORT_STATUSES = ['new', 'resolved'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** Anonymous report of a service. */
export const reportInputSchema = z.strictObject({
  serviceId: text({ trim: false }).min(1).max(64),
  reason: reportReasonSchema,
  description: optionalText(LIMITS.reportDescriptionMax, { multiline: true }),
});
export type ReportInput = z.infer<typeof reportInputSchema>;

export const reportSchema = z.object({
  id: z.string(),
  reason: reportReasonSchema,
  description: z.string(),
  status: reportStatusSchema,
  /** The reported company. */
  service: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;
