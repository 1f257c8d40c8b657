import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditQuery } from '@poruch/core';
import { accounts, auditLog, campaigns, reports, services } from '../db/schema.js';
import type { Executor } from './catalogue.js';

/** LIKE wildcards in a user's text are literal characters. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The target's name as it is now: a service's name, an account's e-mail, a report's service, a
 * campaign's subject; null once it is deleted. Every writer stores a row id as `target_id`.
 */
const targetLabel = sql<string | null>`case ${auditLog.targetType}
  when 'service' then (select ${services.name} from ${services} where ${services.id} = ${auditLog.targetId}::uuid)
  when 'account' then (select ${accounts.email} from ${accounts} where ${accounts.id} = ${auditLog.targetId}::uuid)
  when 'report' then (select s.name from ${reports} r join ${services} s on s.id = r.service_id
    where r.id = ${auditLog.targetId}::uuid)
  when 'campaign' then (select ${campaigns.subject} from ${campaigns} where ${campaigns.id} = ${auditLog.targetId}::uuid)
end`;

type Query = Required<Pick<AuditQuery, 'page' | 'pageSize'>> &
  Omit<AuditQuery, 'page' | 'pageSize'>;

/** A page of the audit log, newest first, with the filters of `GET admin/audit`. */
export async function auditPage(db: Executor, query: Query) {
  const { action, targetType, actor, target, from, to } = query;
  const page = Number(query.page);
  const pageSize = Number(query.pageSize);
  const filters: (SQL | undefined)[] = [
    action ? eq(auditLog.action, action) : undefined,
    targetType ? eq(auditLog.targetType, targetType) : undefined,
    from ? gte(auditLog.createdAt, new Date(from)) : undefined,
    to ? lt(auditLog.createdAt, new Date(to)) : undefined,
  ];
  if (actor) {
    filters.push(
      UUID.test(actor)
        ? eq(auditLog.actorId, actor)
        : ilike(accounts.email, `%${likeEscape(actor)}%`),
    );
  }
  if (target) {
    filters.push(
      or(eq(auditLog.targetId, target), sql`${targetLabel} ilike ${`%${likeEscape(target)}%`}`),
    );
  }
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        entry: auditLog,
        actor: { id: accounts.id, email: accounts.email },
        targetLabel,
      })
      .from(auditLog)
      .leftJoin(accounts, eq(accounts.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: count() })
      .from(auditLog)
      .leftJoin(accounts, eq(accounts.id, auditLog.actorId))
      .where(where),
  ]);
  return {
    items: rows.map(({ entry, actor, targetLabel }): AuditEntry => ({
      id: entry.id,
      actor: actor?.id ? { id: actor.id, email: actor.email } : null,
      action: entry.action as AuditEntry['action'],
      targetType: entry.targetType as AuditEntry['targetType'],
      targetId: entry.targetId,
      targetLabel: targetLabel ?? null,
      details: entry.details,
      createdAt: entry.createdAt.toISOString(),
    })),
    total: total!.n,
    page,
    pageSize,
  };
}
