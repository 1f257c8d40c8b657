/**
 * Personal data of one account: erasure (account deletion) and export (docs/security.md
 * § Privacy). Every place that can hold an account's data is listed here; the privacy test checks
 * every table of the database after a deletion, so a new place without a rule here fails it.
 */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { AccountExport } from '@poruch/core';
import {
  accounts,
  auditLog,
  campaignRecipients,
  mailOutbox,
  pushSubscriptions,
  reports,
  services,
  usedMarks,
  vacancies,
} from '../db/schema.js';
import { SENSITIVE_TEMPLATES } from '../mail/outbox.js';
import type { AccountRow } from './sessions.js';
import { vacancyToApi, type Executor } from './catalogue.js';
import { serviceToApi } from './services.js';

const rowsOf = <T>(result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * Erases the account and everything personal that refers to it, in the caller's transaction:
 *
 * - its services (with their vacancies and used marks), sessions and push subscriptions go;
 * - mail and push notifications still queued for it (or about its services, to administrators)
 *   are deleted; those already sent or failed keep their row for the delivery record, with the
 *   address, payload, error and idempotency key (which holds ids) erased;
 * - reports it filed and reports about its services stay for the administrators' record, with
 *   the description erased and the links cleared;
 * - audit events stay, with the actor, the target and the details erased when they are the
 *   account or its services;
 * - campaign recipient rows of its address go (they hold the address);
 * - search vocabulary words that only its services and vacancies used go.
 */
export async function eraseAccount(tx: Executor, account: Pick<AccountRow, 'id' | 'email'>) {
  const id = account.id;
  const email = account.email.toLowerCase();
  const serviceIds = (
    await tx.select({ id: services.id }).from(services).where(eq(services.ownerId, id))
  ).map((r) => r.id);
  const subscriptionIds = (
    await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.accountId, id))
  ).map((r) => r.id);
  const reportIds = serviceIds.length
    ? (
        await tx
          .select({ id: reports.id })
          .from(reports)
          .where(or(inArray(reports.serviceId, serviceIds), eq(reports.reporterId, id)))
      ).map((r) => r.id)
    : (await tx.select({ id: reports.id }).from(reports).where(eq(reports.reporterId, id))).map(
        (r) => r.id,
      );

  // Words of the search vocabulary that came from its services and vacancies.
  const words = serviceIds.length
    ? rowsOf<{ w: string }>(
        await tx.execute(sql`
          SELECT DISTINCT w FROM (
            SELECT unnest(tsvector_to_array(search_doc)) AS w FROM services
             WHERE owner_id = ${id}
            UNION ALL
            SELECT unnest(tsvector_to_array(v.search_doc)) FROM vacancies v
              JOIN services s ON s.id = v.service_id WHERE s.owner_id = ${id}
          ) t`),
      ).map((r) => r.w)
    : [];

  // Outbox: what is about this account. Keys hold ids: `welcome:<account>`,
  // `mail:approved:<service>:<time>`, `mail:report:<report>:<admin>`, `push:…:<subscription>`.
  const keyPatterns = [id, ...serviceIds, ...reportIds, ...subscriptionIds].map(
    (x) => sql`${mailOutbox.idempotencyKey} LIKE ${`%${x}%`}`,
  );
  const aboutAccount = or(
    sql`lower(${mailOutbox.recipient}) = ${email}`,
    subscriptionIds.length ? inArray(mailOutbox.recipient, subscriptionIds) : undefined,
    sql`${mailOutbox.payload} ->> 'accountId' = ${id}`,
    ...keyPatterns,
  );
  await tx
    .delete(mailOutbox)
    .where(and(aboutAccount, inArray(mailOutbox.status, ['queued', 'sending'])));
  await tx
    .update(mailOutbox)
    .set({
      recipient: '',
      payload: {},
      lastError: null,
      idempotencyKey: sql`'erased:' || ${mailOutbox.id}`,
    })
    .where(aboutAccount);

  await tx
    .delete(campaignRecipients)
    .where(
      or(eq(campaignRecipients.accountId, id), sql`lower(${campaignRecipients.email}) = ${email}`),
    );

  if (reportIds.length) {
    await tx
      .update(reports)
      .set({ description: '', reporterId: null, serviceId: null })
      .where(inArray(reports.id, reportIds));
  }

  // Audit: keep the event, drop what identifies the account or its services.
  const targets = [id, ...serviceIds];
  await tx
    .update(auditLog)
    .set({ targetId: null, details: {} })
    .where(
      or(inArray(auditLog.targetId, targets), sql`${auditLog.details}::text ILIKE ${`%${email}%`}`),
    );
  await tx.update(auditLog).set({ actorId: null }).where(eq(auditLog.actorId, id));

  // Services cascade to vacancies and used marks; sessions and push subscriptions cascade from
  // the account.
  if (serviceIds.length) await tx.delete(services).where(inArray(services.id, serviceIds));
  await tx.delete(accounts).where(eq(accounts.id, id));

  // Vocabulary words nobody else uses any more.
  if (words.length) {
    await tx.execute(sql`
      DELETE FROM search_words sw
       WHERE sw.word IN (${sql.join(
         words.map((w) => sql`${w}`),
         sql`, `,
       )})
         AND NOT EXISTS (SELECT 1 FROM services s
                          WHERE s.search_doc @@ quote_literal(sw.word)::tsquery)
         AND NOT EXISTS (SELECT 1 FROM vacancies v
                          WHERE v.search_doc @@ quote_literal(sw.word)::tsquery)`);
  }
  return { services: serviceIds.length };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Mail whose content is other people's words (a report's text): listed, without the payload. */
const OTHER_PEOPLES_TEMPLATES: ReadonlySet<string> = new Set(['newReport']);

/** Everything Poruch keeps about the account, without secrets (core's accountExportSchema). */
export async function exportAccount(db: Executor, account: AccountRow): Promise<AccountExport> {
  const own = await db
    .select()
    .from(services)
    .where(eq(services.ownerId, account.id))
    .orderBy(asc(services.createdAt));
  const serviceIds = own.map((s) => s.id);
  const [vacancyRows, markRows] = serviceIds.length
    ? await Promise.all([
        db
          .select()
          .from(vacancies)
          .where(inArray(vacancies.serviceId, serviceIds))
          .orderBy(asc(vacancies.createdAt)),
        db
          .select({ serviceId: usedMarks.serviceId, createdAt: usedMarks.createdAt })
          .from(usedMarks)
          .where(inArray(usedMarks.serviceId, serviceIds))
          .orderBy(asc(usedMarks.createdAt)),
      ])
    : [[], []];
  const reportRows = await db
    .select()
    .from(reports)
    .where(eq(reports.reporterId, account.id))
    .orderBy(asc(reports.createdAt));
  const subscriptionRows = await db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.accountId, account.id))
    .orderBy(asc(pushSubscriptions.createdAt));
  const mailRows = await db
    .select()
    .from(mailOutbox)
    .where(sql`lower(${mailOutbox.recipient}) = ${account.email.toLowerCase()}`)
    .orderBy(asc(mailOutbox.createdAt));

  return {
    version: 1,
    exportedAt: new Date().toISOString(),
    account: {
      id: account.id,
      email: account.email,
      type: account.type,
      isSuper: account.isSuper,
      firstName: account.firstName,
      lastName: account.lastName,
      phone: account.phone,
      locale: account.locale,
      marketingConsent: account.marketingConsent,
      unsubscribed: account.unsubscribed,
      termsAgreedAt: iso(account.termsAgreedAt),
      createdAt: account.createdAt.toISOString(),
      updatedAt: account.updatedAt.toISOString(),
    },
    services: own.map(serviceToApi),
    vacancies: vacancyRows.map(vacancyToApi),
    reports: reportRows.map((r) => ({
      id: r.id,
      serviceId: r.serviceId,
      reason: r.reason,
      description: r.description,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      resolvedAt: iso(r.resolvedAt),
    })),
    usedMarks: markRows.map((m) => ({
      serviceId: m.serviceId,
      createdAt: m.createdAt.toISOString(),
    })),
    pushSubscriptions: subscriptionRows.map((s) => ({
      id: s.id,
      endpoint: s.endpoint,
      createdAt: s.createdAt.toISOString(),
    })),
    mail: mailRows.map((m) => ({
      id: m.id,
      template: m.template,
      locale: m.locale,
      status: m.status,
      // A queued reset mail still holds its temporary password, and an administrator's report
      // notice holds what somebody else wrote: neither is exported.
      payload:
        SENSITIVE_TEMPLATES.has(m.template) || OTHER_PEOPLES_TEMPLATES.has(m.template)
          ? {}
          : m.payload,
      createdAt: m.createdAt.toISOString(),
      sentAt: iso(m.sentAt),
    })),
  };
}
