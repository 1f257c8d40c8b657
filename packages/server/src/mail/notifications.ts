import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accounts } from '../db/schema.js';
import type { Executor } from '../repositories/catalogue.js';
import type { ServiceRow } from '../repositories/services.js';

/**
 * The owner of an approved or declined service gets a mail and a push, queued in the transaction
 * that changed the status. Other changes (partner mark) notify nobody.
 */
export async function notifyServiceDecision(app: FastifyInstance, tx: Executor, row: ServiceRow) {
  if (!row.ownerId || (row.status !== 'approved' && row.status !== 'declined')) return;
  const [owner] = await tx
    .select({ id: accounts.id, email: accounts.email, locale: accounts.locale })
    .from(accounts)
    .where(eq(accounts.id, row.ownerId));
  if (!owner) return;
  const dashboardUrl = `${app.mail.publicUrl}/dashboard`;
  // One notice per decision: the key holds the time of the change.
  const key = `${row.status}:${row.id}:${row.updatedAt.getTime()}`;
  if (row.status === 'approved') {
    await app.mail.outbox.enqueue(tx, {
      to: owner.email,
      locale: owner.locale,
      template: 'serviceApproved',
      params: { serviceName: row.name, dashboardUrl },
      key: `mail:${key}`,
    });
    await app.mail.outbox.enqueuePush(tx, {
      to: { accountId: owner.id },
      name: 'serviceApproved',
      params: { serviceName: row.name, url: dashboardUrl },
      key: `push:${key}`,
    });
  } else {
    const reason = row.declineReason ?? '';
    await app.mail.outbox.enqueue(tx, {
      to: owner.email,
      locale: owner.locale,
      template: 'serviceDeclined',
      params: { serviceName: row.name, reason, dashboardUrl },
      key: `mail:${key}`,
    });
    await app.mail.outbox.enqueuePush(tx, {
      to: { accountId: owner.id },
      name: 'serviceDeclined',
      params: { serviceName: row.name, reason, url: dashboardUrl },
      key: `push:${key}`,
    });
  }
}

/** Every administrator gets a mail and a push about a new report. */
export async function notifyNewReport(
  app: FastifyInstance,
  tx: Executor,
  report: { id: string; reason: string; description: string },
  serviceName: string,
) {
  const url = `${app.mail.publicUrl}/dashboard`;
  await app.mail.outbox.enqueueToAdmins(tx, {
    template: 'newReport',
    params: {
      serviceName,
      reason: report.reason,
      description: report.description,
      reportsUrl: url,
    },
    key: `mail:report:${report.id}`,
  });
  await app.mail.outbox.enqueuePush(tx, {
    to: 'admins',
    name: 'newReport',
    params: { serviceName, url },
    key: `push:report:${report.id}`,
  });
}
