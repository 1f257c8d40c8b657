import { z } from 'zod';
import { LIMITS, VALIDATION_KEYS, text } from '../validation.js';
import { pageQueryShape } from './paging.js';

/**
 * Every action the audit log records. The server's `audit()` takes only these, and the audit
 * screen shows each under `audit.action.<code>` (a test checks both locales have them all).
 */
export const AUDIT_ACTIONS = [
  'service.approve',
  'service.decline',
  'service.partner_mark',
  'service.partner_unmark',
  'service.claim_approve',
  'service.claim_decline',
  'report.resolve',
  'campaign.send',
  'admin.create',
  'admin.promote',
  'admin.demote',
  'admin.remove',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an audited action acted on. */
export const AUDIT_TARGET_TYPES = ['service', 'account', 'report', 'campaign'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** One row of the audit log: who, what, on which service or account, when. */
export const auditEntrySchema = z.object({
  id: z.string(),
  /** The administrator who acted; null once that account is deleted. */
  actor: z.object({ id: z.string(), email: z.string() }).nullable(),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.enum(AUDIT_TARGET_TYPES),
  targetId: z.string().nullable(),
  /** The target's name as it is now: a service's name, an account's e-mail; null once deleted. */
  targetLabel: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * Query of `GET admin/audit`. `actor` and `target` match part of the actor's e-mail and of the
 * target's name or e-mail (or the target's id); `from` is inclusive and `to` exclusive.
 */
export const auditQuerySchema = z
  .strictObject({
    action: z.enum(AUDIT_ACTIONS).optional(),
    targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
    actor: text().max(LIMITS.searchQueryMax).optional(),
    target: text().max(LIMITS.searchQueryMax).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    ...pageQueryShape,
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    error: VALIDATION_KEYS.dateRange,
    path: ['to'],
  });
export type AuditQuery = z.input<typeof auditQuerySchema>;
