import { z } from 'zod';
import { categorySchema } from '../categories.js';
import { LIMITS, requiredText } from '../validation.js';
import { serviceStatusSchema } from './service.js';

/** An e-mail campaign to service owners. */
export const campaignInputSchema = z.strictObject({
  subject: requiredText(LIMITS.campaignSubjectMax),
  /** Plain text or Markdown, rendered safely. */
  content: requiredText(LIMITS.campaignContentMax, { multiline: true }),
  statuses: z.array(serviceStatusSchema).default([]),
  categories: z.array(categorySchema).default([]),
  /** Send only to the administrator, as a test. */
  sendToSelf: z.boolean().default(false),
});
export type CampaignInput = z.infer<typeof campaignInputSchema>;

export const campaignSchema = z.object({
  id: z.string(),
  subject: z.string(),
  content: z.string(),
  statuses: z.array(serviceStatusSchema),
  categories: z.array(categorySchema),
  sendToSelf: z.boolean(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;
