import MarkdownIt from 'markdown-it';
import { formatMonthYear, type LocaleCode } from '@poruch/core';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Texts = {
  subject: string;
  /** Paragraphs; URLs in them become links in the HTML part. */
  lines: string[];
  /** Markdown (or plain text) written by an administrator: the text part as is, rendered safely in HTML. */
  markdown?: string;
  /** Paragraphs after the body, smaller in HTML (the unsubscribe notice). */
  footer?: string[];
};
type Template<P> = Record<LocaleCode, (p: P) => Texts>;

const resetPassword: Template<{ password: string; minutes: number; loginUrl: string }> = {
  ua: (p) => ({
    subject: 'Тимчасовий пароль до Поруч',
    lines: [
      'Ви (або хтось інший) попросили скинути пароль до облікового запису в Поруч.',
      `Тимчасовий пароль: ${p.password}`,
      `Він діє ${p.minutes} хв. Увійдіть з ним і змініть пароль у кабінеті: ${p.loginUrl}`,
      'Якщо ви не просили скидання, нічого не робіть: ваш поточний пароль і далі працює.',
    ],
  }),
  en_GB: (p) => ({
    subject: 'Your temporary Poruch password',
    lines: [
      'You (or someone else) asked to reset the password of your Poruch account.',
      `Temporary password: ${p.password}`,
      `It is valid for ${p.minutes} minutes. Log in with it and change your password in your dashboard: ${p.loginUrl}`,
      'If you did not ask for this, do nothing: your current password still works.',
    ],
  }),
};

const welcome: Template<{ firstName: string; dashboardUrl: string }> = {
  ua: (p) => ({
    subject: 'Вітаємо в Поруч',
    lines: [
      `Вітаємо, ${p.firstName}!`,
      'Ваш обліковий запис створено. Ваш сервіс перевірить адміністратор, і ми повідомимо про рішення.',
      `Кабінет: ${p.dashboardUrl}`,
    ],
  }),
  en_GB: (p) => ({
    subject: 'Welcome to Poruch',
    lines: [
      `Welcome, ${p.firstName}!`,
      'Your account has been created. An administrator will review your service and we will let you know the decision.',
      `Dashboard: ${p.dashboardUrl}`,
    ],
  }),
};

const credentialsChanged: Template<{ newEmail: string | null }> = {
  ua: (p) => ({
    subject: 'Дані для входу до Поруч змінено',
    lines: [
      p.newEmail
        ? `Адресу для входу змінено на ${p.newEmail}.`
        : 'Пароль до вашого облікового запису змінено.',
      'Якщо це були не ви, негайно скиньте пароль і напишіть нам.',
    ],
  }),
  en_GB: (p) => ({
    subject: 'Your Poruch login details were changed',
    lines: [
      p.newEmail
        ? `Your login e-mail was changed to ${p.newEmail}.`
        : 'Your account password was changed.',
      'If this was not you, reset your password at once and contact us.',
    ],
  }),
};

const accountDeleted: Template<Record<string, never>> = {
  ua: () => ({
    subject: 'Обліковий запис у Поруч видалено',
    lines: [
      'Ваш обліковий запис і всі ваші сервіси та вакансії видалено.',
      'Дякуємо, що були з нами.',
    ],
  }),
  en_GB: () => ({
    subject: 'Your Poruch account was deleted',
    lines: [
      'Your account and all your services and vacancies have been deleted.',
      'Thank you for being with us.',
    ],
  }),
};

const serviceApproved: Template<{ serviceName: string; dashboardUrl: string }> = {
  ua: (p) => ({
    subject: `Сервіс «${p.serviceName}» схвалено`,
    lines: [
      `Адміністратор схвалив ваш сервіс «${p.serviceName}». Тепер його видно в каталозі й на мапі.`,
      `Кабінет: ${p.dashboardUrl}`,
    ],
  }),
  en_GB: (p) => ({
    subject: `Your service "${p.serviceName}" has been approved`,
    lines: [
      `An administrator approved your service "${p.serviceName}". It is now shown in the directory and on the map.`,
      `Dashboard: ${p.dashboardUrl}`,
    ],
  }),
};

const serviceDeclined: Template<{ serviceName: string; reason: string; dashboardUrl: string }> = {
  ua: (p) => ({
    subject: `Сервіс «${p.serviceName}» відхилено`,
    lines: [
      `Адміністратор відхилив ваш сервіс «${p.serviceName}».`,
      `Причина: ${p.reason}`,
      `Виправте сервіс у кабінеті, і його перевірять знову: ${p.dashboardUrl}`,
    ],
  }),
  en_GB: (p) => ({
    subject: `Your service "${p.serviceName}" has been declined`,
    lines: [
      `An administrator declined your service "${p.serviceName}".`,
      `Reason: ${p.reason}`,
      `Correct the service in your dashboard and it will be reviewed again: ${p.dashboardUrl}`,
    ],
  }),
};

const REPORT_REASONS: Record<LocaleCode, Record<string, string>> = {
  ua: { wrong_address: 'неправильна адреса', no_contact: 'немає зв’язку', other: 'інше' },
  en_GB: { wrong_address: 'wrong address', no_contact: 'no contact', other: 'other' },
};

const newReport: Template<{
  serviceName: string;
  reason: string;
  description: string;
  reportsUrl: string;
}> = {
  ua: (p) => ({
    subject: `Нова скарга: «${p.serviceName}»`,
    lines: [
      `Надійшла скарга на сервіс «${p.serviceName}».`,
      `Причина: ${REPORT_REASONS.ua[p.reason] ?? p.reason}`,
      ...(p.description ? [`Опис: ${p.description}`] : []),
      `Скарги: ${p.reportsUrl}`,
    ],
  }),
  en_GB: (p) => ({
    subject: `New report: "${p.serviceName}"`,
    lines: [
      `A service has been reported: "${p.serviceName}".`,
      `Reason: ${REPORT_REASONS.en_GB[p.reason] ?? p.reason}`,
      ...(p.description ? [`Description: ${p.description}`] : []),
      `Reports: ${p.reportsUrl}`,
    ],
  }),
};

const campaign: Template<{ subject: string; content: string; unsubscribeUrl: string }> = {
  ua: (p) => ({
    subject: p.subject,
    lines: [],
    markdown: p.content,
    footer: [
      'Ви отримали цей лист, бо ваш сервіс є в каталозі Поруч.',
      `Відписатися від розсилок: ${p.unsubscribeUrl}`,
    ],
  }),
  en_GB: (p) => ({
    subject: p.subject,
    lines: [],
    markdown: p.content,
    footer: [
      'You receive this e-mail because your service is listed in the Poruch directory.',
      `Unsubscribe from these e-mails: ${p.unsubscribeUrl}`,
    ],
  }),
};

/** An item of an alert digest: its name, a detail (address, or the vacancy's service) and its page. */
export interface DigestItem {
  name: string;
  detail: string;
  url: string;
}

type DigestParams = {
  kind: 'services' | 'vacancies';
  /** The search's filters as lines (core's alertFilterLines, in the recipient's language). */
  filters: string[];
  items: DigestItem[];
  /** New items beyond those listed. */
  more: number;
  /** The site's search with the alert's filters. */
  searchUrl: string;
  /** The alert's manage page (change or cancel). */
  manageUrl: string;
  /** List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), added by the worker. */
  headers: Record<string, string>;
};

const digestItem = (i: DigestItem) =>
  i.detail.trim() ? `${i.name} — ${i.detail}: ${i.url}` : `${i.name}: ${i.url}`;

const alertDigest: Template<DigestParams> = {
  ua: (p) => ({
    subject: `${p.kind === 'services' ? 'Нові сервіси' : 'Нові вакансії'} за вашою підпискою: ${p.items.length + p.more}`,
    lines: [
      p.kind === 'services'
        ? 'У Поруч з’явилися нові сервіси, що відповідають вашому пошуку:'
        : 'У Поруч з’явилися нові вакансії, що відповідають вашому пошуку:',
      `Ваш пошук: ${p.filters.join(' · ')}`,
      ...p.items.map(digestItem),
      p.more > 0
        ? `І ще ${p.more}. Усі результати: ${p.searchUrl}`
        : `Усі результати пошуку: ${p.searchUrl}`,
    ],
    footer: [
      'Ви отримали цей лист, бо підписалися на сповіщення про нові результати пошуку в Поруч.',
      `Змінити підписку або відписатися: ${p.manageUrl}`,
    ],
  }),
  en_GB: (p) => ({
    subject: `${p.kind === 'services' ? 'New services' : 'New vacancies'} for your alert: ${p.items.length + p.more}`,
    lines: [
      p.kind === 'services'
        ? 'New services matching your search have been added to Poruch:'
        : 'New vacancies matching your search have been added to Poruch:',
      `Your search: ${p.filters.join(' · ')}`,
      ...p.items.map(digestItem),
      p.more > 0
        ? `And ${p.more} more. See every result: ${p.searchUrl}`
        : `See every result of your search: ${p.searchUrl}`,
    ],
    footer: [
      'You receive this e-mail because you signed up for alerts about new search results on Poruch.',
      `Change or cancel this alert: ${p.manageUrl}`,
    ],
  }),
};

/** The double opt-in of an alert: nothing is mailed to the address before it opens the link. */
const alertConfirm: Template<{
  kind: 'services' | 'vacancies';
  /** The search's filters as lines (core's alertFilterLines, in the recipient's language). */
  filters: string[];
  confirmUrl: string;
  manageUrl: string;
  days: number;
}> = {
  ua: (p) => ({
    subject: 'Підтвердьте сповіщення Поруч',
    lines: [
      p.kind === 'services'
        ? 'Ви (або хтось інший) попросили надсилати на цю адресу нові сервіси за пошуком:'
        : 'Ви (або хтось інший) попросили надсилати на цю адресу нові вакансії за пошуком:',
      ...p.filters.map((line) => `• ${line}`),
      `Щоб увімкнути сповіщення, відкрийте посилання (дійсне ${p.days} днів): ${p.confirmUrl}`,
      'Якщо ви не підписувалися, нічого не робіть: без підтвердження ми більше не напишемо.',
    ],
    footer: [`Усі ваші сповіщення: ${p.manageUrl}`],
  }),
  en_GB: (p) => ({
    subject: 'Confirm your Poruch alert',
    lines: [
      p.kind === 'services'
        ? 'You (or someone else) asked us to e-mail new services matching this search to this address:'
        : 'You (or someone else) asked us to e-mail new vacancies matching this search to this address:',
      ...p.filters.map((line) => `• ${line}`),
      `To turn the alert on, open this link (valid for ${p.days} days): ${p.confirmUrl}`,
      'If you did not sign up, do nothing: without a confirmation we will not write again.',
    ],
    footer: [`All your alerts: ${p.manageUrl}`],
  }),
};

/** The yearly re-confirmation mail and its reminder (src/reconfirm/, docs/mail.md). */
type ReconfirmParams = {
  serviceName: string;
  /** The confirmation this cycle is about (ISO). */
  confirmedAt: string;
  /** One click, no login: the site's page confirms the service. */
  confirmUrl: string;
  /** The service's editor in the dashboard (after login). */
  updateUrl: string;
  /** Days after the first mail when an unconfirmed service leaves the directory. */
  hideDays: number;
};

const reconfirmTexts = (reminder: boolean): Template<ReconfirmParams> => ({
  ua: (p) => ({
    subject: reminder
      ? `Нагадування: чи працює ще «${p.serviceName}»?`
      : `Чи працює ще «${p.serviceName}»?`,
    lines: [
      `Останнє підтвердження вашого сервісу «${p.serviceName}»: ${formatMonthYear(p.confirmedAt, 'ua')} р. Раз на рік ми просимо власників підтвердити, що сервіс працює і дані в ньому правильні.`,
      `Якщо все актуально, натисніть, вхід не потрібен: ${p.confirmUrl}`,
      `Якщо щось змінилося, оновіть сервіс у кабінеті: ${p.updateUrl}`,
      `Без підтвердження через місяць біля сервісу з’явиться позначка «Не підтверджено», а через ${p.hideDays} днів після першого листа його приховають із каталогу, мапи й пошуку, доки ви його не підтвердите.`,
    ],
  }),
  en_GB: (p) => ({
    subject: reminder
      ? `Reminder: is "${p.serviceName}" still running?`
      : `Is "${p.serviceName}" still running?`,
    lines: [
      `Your service "${p.serviceName}" was last confirmed in ${formatMonthYear(p.confirmedAt, 'en_GB')}. Once a year we ask owners to confirm that their service is still running and its details are right.`,
      `If everything is up to date, click here (no login needed): ${p.confirmUrl}`,
      `If something has changed, update the service in your dashboard: ${p.updateUrl}`,
      `Without a confirmation, the service is marked "Not confirmed" after a month, and ${p.hideDays} days after the first e-mail it is hidden from the directory, the map and search until you confirm it.`,
    ],
  }),
});

export const TEMPLATES = {
  resetPassword,
  welcome,
  credentialsChanged,
  accountDeleted,
  serviceApproved,
  serviceDeclined,
  newReport,
  campaign,
  alertDigest,
  alertConfirm,
  reconfirm: reconfirmTexts(false),
  reconfirmReminder: reconfirmTexts(true),
};
export type TemplateName = keyof typeof TEMPLATES;
export type TemplateParams<N extends TemplateName> = Parameters<(typeof TEMPLATES)[N]['ua']>[0];

/**
 * Markdown of administrators: raw HTML is escaped (`html: false`), links are only http, https and
 * mailto (markdown-it already refuses javascript:, vbscript:, file: and most data: URLs; this is
 * stricter), single line breaks stay line breaks, so plain text reads as written.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });
markdown.validateLink = (url) => /^(https?:|mailto:)/i.test(url.trim());

/** Escapes a paragraph and turns its http(s) URLs into links. */
const paragraph = (line: string) =>
  escapeHtml(line).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

/** Renders a template in the recipient's locale, as plain text and HTML (every value escaped). */
export function renderMail<N extends TemplateName>(
  name: N,
  locale: LocaleCode,
  params: TemplateParams<N>,
): RenderedMail {
  const render = TEMPLATES[name][locale] as (p: TemplateParams<N>) => Texts;
  const { subject, lines, markdown: md, footer = [] } = render(params);
  const signature = '— Поруч / Poruch';
  const textParts = [...(md !== undefined ? [md.trim()] : []), ...lines, signature, ...footer];
  const htmlBody = [
    ...(md !== undefined ? [markdown.render(md)] : []),
    ...lines.map((l) => `<p>${paragraph(l)}</p>`),
    `<p style="color:#555">${escapeHtml(signature)}</p>`,
    ...footer.map((l) => `<p style="color:#777;font-size:12px">${paragraph(l)}</p>`),
  ].join('');
  return {
    // One line: a user's text in it (a service name, a campaign subject) never adds a header.
    subject: subject.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim(),
    text: `${textParts.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${htmlBody}</body></html>`,
  };
}

/** A push notification: short, in the recipient's locale. */
export interface RenderedPush {
  title: string;
  body: string;
  /** Where a click on the notification leads. */
  url: string;
}

/** The Ukrainian form of a count's noun: 1 (21, 31…), 2–4 (22–24…), or the rest (5–20, 25…). */
const uaCount = (n: number, one: string, few: string, many: string) => {
  const tens = n % 100;
  if (tens % 10 === 1 && tens !== 11) return one;
  if (tens % 10 >= 2 && tens % 10 <= 4 && (tens < 12 || tens > 14)) return few;
  return many;
};

/** What an alert's digest push says: how many new results, for which search (its lines). */
type AlertDigestPush = { count: number; search: string; url: string };

const PUSHES = {
  alertDigest: {
    ua: (p: AlertDigestPush) => ({
      title: `${p.count} ${uaCount(p.count, 'новий результат', 'нові результати', 'нових результатів')} за вашою підпискою`,
      body: p.search,
      url: p.url,
    }),
    en_GB: (p: AlertDigestPush) => ({
      title: `${p.count} new ${p.count === 1 ? 'result' : 'results'} for your alert`,
      body: p.search,
      url: p.url,
    }),
  },
  serviceApproved: {
    ua: (p: { serviceName: string; url: string }) => ({
      title: 'Сервіс схвалено',
      body: `«${p.serviceName}» тепер у каталозі й на мапі.`,
      url: p.url,
    }),
    en_GB: (p: { serviceName: string; url: string }) => ({
      title: 'Service approved',
      body: `"${p.serviceName}" is now in the directory and on the map.`,
      url: p.url,
    }),
  },
  serviceDeclined: {
    ua: (p: { serviceName: string; reason: string; url: string }) => ({
      title: 'Сервіс відхилено',
      body: `«${p.serviceName}»: ${p.reason}`,
      url: p.url,
    }),
    en_GB: (p: { serviceName: string; reason: string; url: string }) => ({
      title: 'Service declined',
      body: `"${p.serviceName}": ${p.reason}`,
      url: p.url,
    }),
  },
  newReport: {
    ua: (p: { serviceName: string; url: string }) => ({
      title: 'Нова скарга',
      body: `Скарга на «${p.serviceName}».`,
      url: p.url,
    }),
    en_GB: (p: { serviceName: string; url: string }) => ({
      title: 'New report',
      body: `"${p.serviceName}" has been reported.`,
      url: p.url,
    }),
  },
};
export type PushName = keyof typeof PUSHES;
export type PushParams<N extends PushName> = Parameters<(typeof PUSHES)[N]['ua']>[0];

/** Renders a push notification in the recipient's locale. */
export function renderPush<N extends PushName>(
  name: N,
  locale: LocaleCode,
  params: PushParams<N>,
): RenderedPush {
  return (PUSHES[name][locale] as (p: PushParams<N>) => RenderedPush)(params);
}
