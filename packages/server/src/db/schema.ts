import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AccountType,
  AddressDetails,
  AlertFilters,
  AlertFrequency,
  AlertKind,
  CategoryKey,
  ClaimStatus,
  DuplicateAnswer,
  ConfirmationState,
  Experience,
  LocaleCode,
  ReportReason,
  ReportStatus,
  ServiceStatus,
} from '@poruch/core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** A temporary password from a reset; the old one keeps working until this one is used. */
    tempPasswordHash: text('temp_password_hash'),
    tempPasswordExpiresAt: timestamp('temp_password_expires_at', { withTimezone: true }),
    type: text('type').$type<AccountType>().notNull(),
    isSuper: boolean('is_super').notNull().default(false),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    locale: text('locale').$type<LocaleCode>().notNull().default('ua'),
    marketingConsent: boolean('marketing_consent').notNull().default(false),
    unsubscribed: boolean('unsubscribed').notNull().default(false),
    termsAgreedAt: timestamp('terms_agreed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque token; the token itself is only in the cookie. */
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId)],
);

export const services = pgTable(
  'services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').references(() => accounts.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    countryCode: text('country_code').notNull(),
    category: text('category').$type<CategoryKey>(),
    address: text('address').notNull().default(''),
    addressDetails: jsonb('address_details').$type<AddressDetails>(),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    website: text('website').notNull().default(''),
    phone: text('phone').notNull().default(''),
    descriptionUa: text('description_ua').notNull().default(''),
    descriptionOther: text('description_other').notNull().default(''),
    isOnline: boolean('is_online').notNull().default(false),
    haveVacancy: boolean('have_vacancy').notNull().default(false),
    showOnMap: boolean('show_on_map').notNull().default(true),
    isPartner: boolean('is_partner').notNull().default(false),
    status: text('status').$type<ServiceStatus>().notNull().default('pending'),
    declineReason: text('decline_reason'),
    /** The name's search key, kept by a trigger; duplicate detection compares it (migration 0013). */
    nameKey: text('name_key').notNull().default(''),
    usedCount: integer('used_count').notNull().default(0),
    originalPlace: text('original_place').notNull().default(''),
    marketingConsent: boolean('marketing_consent').notNull().default(false),
    /** Yearly re-confirmation (migration 0012, src/reconfirm/). */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    reconfirmMailedAt: timestamp('reconfirm_mailed_at', { withTimezone: true }),
    reconfirmRemindedAt: timestamp('reconfirm_reminded_at', { withTimezone: true }),
    confirmation: text('confirmation').$type<ConfirmationState>().notNull().default('current'),
    /** Its last approval, set by the approve route; alert digests read it (migration 0016). */
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('services_owner_idx').on(t.ownerId),
    index('services_status_country_category_idx').on(t.status, t.countryCode, t.category),
    index('services_lat_lng_idx').on(t.lat, t.lng),
    index('services_approved_at_idx')
      .on(t.approvedAt)
      .where(sql`${t.approvedAt} IS NOT NULL`),
  ],
);

export const vacancies = pgTable(
  'vacancies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    requirements: text('requirements').notNull().default(''),
    description: text('description').notNull().default(''),
    salary: text('salary').notNull().default(''),
    experience: text('experience').$type<Experience>().notNull().default('any'),
    isOpen: boolean('is_open').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('vacancies_service_idx').on(t.serviceId),
    index('vacancies_created_at_idx').on(t.createdAt),
  ],
);

/** "I have used this service": one mark per browser (an anonymous random id). */
export const usedMarks = pgTable(
  'used_marks',
  {
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    browserId: text('browser_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.serviceId, t.browserId] })],
);

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serviceId: uuid('service_id').references(() => services.id, { onDelete: 'set null' }),
    reason: text('reason').$type<ReportReason>().notNull(),
    description: text('description').notNull().default(''),
    status: text('status').$type<ReportStatus>().notNull().default('new'),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => accounts.id, { onDelete: 'set null' }),
    /**
     * The account that filed it, when it was logged in (null for visitors). Only that account
     * sees the link (its data export); deleting the account clears it.
     */
    reporterId: uuid('reporter_id').references(() => accounts.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('reports_status_idx').on(t.status, t.createdAt),
    index('reports_reporter_idx').on(t.reporterId),
  ],
);

export const campaigns = pgTable('campaigns', {
  id: uuid('id').primaryKey().defaultRandom(),
  createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
  subject: text('subject').notNull(),
  content: text('content').notNull(),
  statuses: jsonb('statuses').$type<ServiceStatus[]>().notNull().default([]),
  categories: jsonb('categories').$type<CategoryKey[]>().notNull().default([]),
  sendToSelf: boolean('send_to_self').notNull().default(false),
  createdAt: createdAt(),
});

/** One row per campaign recipient: each address gets a campaign once. */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    outboxId: uuid('outbox_id'),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.email] })],
);

/** Durable mail outbox: enqueued in the transaction of the action that causes the mail. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The same key never produces a second mail. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    messageId: text('message_id').notNull(),
    recipient: text('recipient').notNull(),
    template: text('template').notNull(),
    locale: text('locale').$type<LocaleCode>().notNull().default('ua'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** queued | sending | sent | failed */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_account_idx').on(t.accountId)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

/**
 * What a partner said, when adding a service, about an approved lookalike (src/duplicates/):
 * `mine` is a claim for the administrators (`claimStatus` open, approved or declined), `different`
 * a note for the reviewer.
 */
export const duplicateAnswers = pgTable(
  'duplicate_answers',
  {
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    candidateId: uuid('candidate_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    answer: text('answer').$type<DuplicateAnswer>().notNull(),
    claimStatus: text('claim_status').$type<ClaimStatus>(),
    resolvedBy: uuid('resolved_by').references(() => accounts.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.candidateId] }),
    index('duplicate_answers_candidate_idx').on(t.candidateId),
  ],
);

/** Server-wide settings kept across restarts (generated secrets, VAPID keys, seed marker). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Area alerts: an address subscribed to new results of a search (docs/product.md § Alerts).
 * Nothing is mailed while `confirmedAt` is null (double opt-in).
 */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-case. */
    email: text('email').notNull(),
    locale: text('locale').$type<LocaleCode>().notNull(),
    kind: text('kind').$type<AlertKind>().notNull(),
    filters: jsonb('filters').$type<AlertFilters>().notNull(),
    frequency: text('frequency').$type<AlertFrequency>().notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The end of the period last mailed; set to `confirmedAt` on confirmation. */
    lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('alert_subscriptions_email_idx').on(t.email),
    index('alert_subscriptions_confirmed_frequency_idx')
      .on(t.frequency, t.lastDigestAt)
      .where(sql`${t.confirmedAt} IS NOT NULL`),
    index('alert_subscriptions_unconfirmed_idx')
      .on(t.createdAt)
      .where(sql`${t.confirmedAt} IS NULL`),
    check('alert_subscriptions_locale_check', sql`${t.locale} IN ('ua', 'en_GB')`),
    check('alert_subscriptions_kind_check', sql`${t.kind} IN ('services', 'vacancies')`),
    check(
      'alert_subscriptions_frequency_check',
      sql`${t.frequency} IN ('instant', 'daily', 'weekly')`,
    ),
    check('alert_subscriptions_email_check', sql`${t.email} = lower(${t.email})`),
  ],
);

/**
 * The browser push subscriptions of an alert (migration 0014): pending until a confirmation link
 * mailed after the row was written is opened (`confirmedAt`); only confirmed rows get pushes.
 */
export const alertPushSubscriptions = pgTable(
  'alert_push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alertSubscriptions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [unique('alert_push_subscriptions_alert_endpoint_unique').on(t.alertId, t.endpoint)],
);

/** Each item mailed to a subscription, once (the digests' at-most-once record). */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => alertSubscriptions.id, { onDelete: 'cascade' }),
    itemKind: text('item_kind').$type<AlertKind>().notNull(),
    itemId: uuid('item_id').notNull(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.itemKind, t.itemId] })],
);

/**
 * The catalogue version (migration 0016): `version` plus the rows of catalogue_changes moves on
 * with every committed change to what the open data exports; the open-data ETag is built from it.
 */
export const catalogueVersion = pgTable('catalogue_version', {
  id: boolean('id').primaryKey().default(true),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/** One row per transaction that changed what the open data exports, until folded (0016). */
export const catalogueChanges = pgTable('catalogue_changes', {
  tx: bigint('tx', { mode: 'number' }).primaryKey(),
});
