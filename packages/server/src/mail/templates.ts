import type { LocaleCode } from '@poruch/core';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Texts = { subject: string; lines: string[] };
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

export const TEMPLATES = { resetPassword, welcome, credentialsChanged, accountDeleted };
export type TemplateName = keyof typeof TEMPLATES;
export type TemplateParams<N extends TemplateName> = Parameters<(typeof TEMPLATES)[N]['ua']>[0];

/** Renders a template in the recipient's locale, as plain text and HTML (every value escaped). */
export function renderMail<N extends TemplateName>(
  name: N,
  locale: LocaleCode,
  params: TemplateParams<N>,
): RenderedMail {
  const render = TEMPLATES[name][locale] as (p: TemplateParams<N>) => Texts;
  const { subject, lines } = render(params);
  return {
    subject,
    text: `${lines.join('\n\n')}\n\n— Поруч / Poruch\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${lines
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('')}<p style="color:#555">— Поруч / Poruch</p></body></html>`,
  };
}
