/**
 * Area alerts end to end (docs/product.md § Alerts): a visitor subscribes from the home page in
 * both languages, the confirmation mail (written to DATA_DIR/mail without SMTP_URL) carries the
 * link that confirms, the manage page changes and deletes; and `<poruch-search alerts>` on
 * another origin subscribes without a cookie. One server, one browser.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n, translator } from '@poruch/core';
import {
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { startStaticServer, type StaticServer } from './fixtures/staticServer.js';
import { POLL, newPage, seriousViolations, ua } from './helpers/screens.js';
import { trackedContext, type WidgetEnv } from './helpers/widgets.js';

const en = translator(createI18n('en_GB'));

let server: RunningServer;
let host: StaticServer;
let hostRoot: string;
let browser: Browser;

beforeAll(async () => {
  const dataDir = await makeDataDir();
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false', ALERT_DIGESTS: 'false' } });
  hostRoot = await mkdtemp(path.join(os.tmpdir(), 'poruch-alerts-host-'));
  await writeFile(
    path.join(hostRoot, 'alerts.html'),
    `<!doctype html><html lang="uk"><head><meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" /><title>Host</title>
<link rel="icon" href="data:," />
<script type="module" src="${server.baseUrl}/widgets/v0/poruch.js"></script></head>
<body><main><poruch-search api-base="${server.baseUrl}" q="юрист" alerts></poruch-search></main></body></html>`,
  );
  host = await startStaticServer(hostRoot);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await server?.stop();
  if (hostRoot) await rm(hostRoot, { recursive: true, force: true });
});

/** Quoted-printable, as nodemailer writes a text part. */
const unQuote = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/(?:=[0-9A-F]{2})+/g, (m) =>
    Buffer.from(
      m
        .split('=')
        .slice(1)
        .map((h) => parseInt(h, 16)),
    ).toString('utf8'),
  );

/** The subject and text of the mail to `to`, once the outbox has written it. */
async function mailTo(to: string): Promise<{ subject: string; text: string }> {
  const dir = path.join(server.dataDir, 'mail');
  return vi.waitUntil(
    async () => {
      for (const f of (await readdir(dir).catch(() => [] as string[])).filter((n) =>
        n.endsWith('.eml'),
      )) {
        const raw = await readFile(path.join(dir, f), 'utf8');
        if (!raw.toLowerCase().includes(to)) continue;
        const text = unQuote(raw);
        const header = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
        const subject = /^Subject: (.*)$/m.exec(header)?.[1] ?? '';
        // RFC 2047 words: their bytes joined first (a letter may span two words).
        const bytes = [...subject.matchAll(/=\?UTF-8\?([QB])\?(.*?)\?=/gi)].map(([, kind, v]) =>
          kind!.toUpperCase() === 'B'
            ? Buffer.from(v!, 'base64')
            : Buffer.from(unQuote(v!.replace(/_/g, ' ')), 'utf8'),
        );
        const decoded = bytes.length ? Buffer.concat(bytes).toString('utf8') : subject;
        return { subject: decoded.replace(/\s+/g, ' ').trim(), text };
      }
      return null;
    },
    { timeout: 20_000, interval: 200 },
  ) as Promise<{ subject: string; text: string }>;
}

/** The path of the site link in `text` that starts with `prefix` (the mail's host replaced). */
const linkIn = (text: string, prefix: string) => {
  const m = new RegExp(`https?://[^/\\s]+(${prefix.replace('?', '\\?')}[^\\s<>"]+)`).exec(text);
  expect(m, text).toBeTruthy();
  return `${server.baseUrl}${m![1]}`;
};

/** The page runs as the installed app: `(display-mode: standalone)` matches. */
const asInstalledApp = (page: Page) =>
  page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) =>
      q.includes('display-mode: standalone')
        ? ({ ...real(q), matches: true, media: q } as MediaQueryList)
        : real(q);
  });

async function subscribeFromHome(page: Page, email: string, t: typeof ua, frequency: string) {
  await page.getByRole('button', { name: t('alerts.notify_button') }).click();
  const dialog = page.getByTestId('alert-dialog');
  await dialog.waitFor();
  await dialog.getByLabel(t('field.email')).fill(email);
  await dialog.getByLabel(t(`alerts.frequency_${frequency}`)).check();
  return dialog;
}

describe('alerts', () => {
  it('subscribes from the home page in Ukrainian, confirms by the mailed link, changes and deletes', async () => {
    const page = await newPage(browser, 1280);
    await page.goto(`${server.baseUrl}/?q=${encodeURIComponent('перукар')}&country=PL`);
    const dialog = await subscribeFromHome(page, 'olena@alerts.test', ua, 'weekly');
    // A browser tab (not the installed app) offers no push on this device.
    expect(await dialog.getByRole('checkbox', { name: ua('alerts.push_device') }).count()).toBe(0);
    // The search is shown read-only.
    await expect
      .poll(() => dialog.getByTestId('alert-filters').innerText())
      .toContain(ua('alerts.filter_q', { q: 'перукар' }));
    // A wrong address first: the field says so, nothing is sent.
    await dialog.getByLabel(ua('field.email')).fill('olena@');
    await dialog.getByRole('button', { name: ua('alerts.submit') }).click();
    await dialog.locator('.field__error').waitFor();
    await dialog.getByLabel(ua('field.email')).fill('olena@alerts.test');
    await screenshot(page, 'alerts-dialog');
    await dialog.getByRole('button', { name: ua('alerts.submit') }).click();
    await dialog.getByText(ua('alerts.sent_title')).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'alerts-dialog-sent');
    await dialog
      .getByRole('button', { name: ua('common.close') })
      .first()
      .click();
    await dialog.waitFor({ state: 'detached' });

    const mail = await mailTo('olena@alerts.test');
    expect(mail.subject).toBe('Підтвердьте сповіщення Поруч');
    expect(mail.text).toContain(ua('alerts.filter_country', { country: ua('country_name.PL') }));
    await page.goto(linkIn(mail.text, '/alerts/confirm?token='));
    const card = page.locator('[data-screen="alerts-confirm"] [data-state]');
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('ready');
    await page.getByText(ua('alerts.confirmed_title')).waitFor();
    await screenshot(page, 'alerts-confirmed');

    await page.getByRole('link', { name: ua('alerts.manage_link') }).click();
    const alert = page.getByTestId('alert');
    await alert.waitFor();
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.getByLabel(ua('alerts.frequency')).inputValue()).toBe('weekly');
    await screenshot(page, 'alerts-manage');
    await alert.getByLabel(ua('alerts.frequency')).selectOption('daily');
    await alert.getByRole('button', { name: ua('common.save') }).click();
    await page.getByText(ua('alerts.saved')).first().waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByTestId('alert').getByLabel(ua('alerts.frequency')).inputValue(), POLL)
      .toBe('daily');

    // Delete, confirmed in the danger style.
    await page
      .getByTestId('alert')
      .getByRole('button', { name: ua('alerts.delete') })
      .click();
    const confirm = page.getByRole('alertdialog');
    const accept = confirm.getByRole('button', { name: ua('alerts.delete') });
    expect(await accept.getAttribute('class')).toContain('danger');
    await accept.click();
    await page.getByTestId('alerts-empty').waitFor();
    await screenshot(page, 'alerts-manage-empty');
    await page.close();
  });

  it('subscribes to vacancies in English: the mail and the pages are English', async () => {
    const page = await newPage(browser, 375);
    await page.goto(`${server.baseUrl}/?lang=en_GB&mode=vacancies&q=cook`);
    const dialog = await subscribeFromHome(page, 'john@alerts.test', en, 'instant');
    await dialog.getByText(en('alerts.dialog_title_vacancies')).waitFor();
    await dialog.getByRole('button', { name: en('alerts.submit') }).click();
    await dialog.getByText(en('alerts.sent_title')).waitFor();
    await screenshot(page, 'alerts-dialog-sent-en');

    const mail = await mailTo('john@alerts.test');
    expect(mail.subject).toBe('Confirm your Poruch alert');
    await page.goto(linkIn(mail.text, '/alerts/confirm?token='));
    await page.getByText(en('alerts.confirmed_title')).waitFor();
    await page.goto(linkIn(mail.text, '/alerts/manage?token='));
    await page.getByTestId('alert').getByText(en('alerts.kind_vacancies')).waitFor();
    await screenshot(page, 'alerts-manage-en');

    // A link with a changed token: the page says so, nothing else.
    const forged = linkIn(mail.text, '/alerts/confirm?token=').replace(
      /token=([^&]+?)(.)(&|$)/,
      'token=$1x$3',
    );
    await page.goto(forged);
    await page.getByText(en('alerts.confirm_invalid')).waitFor();
    await screenshot(page, 'alerts-confirm-invalid-en');
    await page.close();
  });

  it('subscribes within a radius of a place from the dialog; the manage page shows it; push only in the installed app', async () => {
    for (const [t, lang] of [
      [ua, 'ua'],
      [en, 'en_GB'],
    ] as const) {
      const page = await newPage(browser, 1280);
      // The installed app: the checkbox for this device's pushes.
      await asInstalledApp(page);
      await page.goto(
        `${server.baseUrl}/?lang=${lang}&q=${encodeURIComponent('юрист')}&country=PL`,
      );
      await page.getByRole('button', { name: t('alerts.notify_button') }).click();
      const dialog = page.getByTestId('alert-dialog');
      await dialog.waitFor();
      await dialog.getByRole('checkbox', { name: t('alerts.push_device') }).waitFor();
      const place = dialog.getByRole('combobox', { name: t('alerts.place') });
      const email = `near-${lang.toLowerCase()}@alerts.test`;
      await dialog.getByLabel(t('field.email')).fill(email);
      // Typed, not taken from the list: refused with a message in the visitor's language.
      await place.fill('Десь біля річки');
      await dialog.getByRole('button', { name: t('alerts.submit') }).click();
      await dialog.getByText(t('validation.alert_place')).waitFor();
      await screenshot(page, `alerts-dialog-place-error-${lang}`);
      await place.fill('Krak');
      const option = dialog.getByRole('option', { name: /Kraków/ }).first();
      await option.waitFor({ timeout: 15_000 });
      await screenshot(page, `alerts-dialog-place-${lang}`);
      const label = (await option.innerText()).trim();
      await option.click();
      expect(await place.inputValue()).toBe(label);
      expect(await dialog.getByLabel(t('alerts.radius_label')).inputValue()).toBe('25');
      await screenshot(page, `alerts-dialog-near-${lang}`);
      await dialog.getByRole('button', { name: t('alerts.submit') }).click();
      await dialog.getByText(t('alerts.sent_title')).waitFor();
      const mail = await mailTo(email);
      await page.goto(linkIn(mail.text, '/alerts/confirm?token='));
      await page.getByText(t('alerts.confirmed_title')).waitFor();
      await page.goto(linkIn(mail.text, '/alerts/manage?token='));
      await page
        .getByTestId('alert')
        .getByText(t('alerts.filter_near', { radius: 25, place: label }))
        .waitFor();
      await screenshot(page, `alerts-manage-near-${lang}`);

      // A device sent with an alert (as the app sends it) is listed once confirmed, and turned off.
      const deviceEmail = `device-${lang.toLowerCase()}@alerts.test`;
      const status = await page.evaluate(
        async ([to, locale]) =>
          (
            await fetch('/api/v1/alerts', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                email: to,
                locale,
                kind: 'services',
                filters: { category: 'all' },
                push: {
                  endpoint: 'https://push.example.com/send/e2e-device',
                  keys: { p256dh: 'BNc3', auth: 'k9' },
                },
              }),
            })
          ).status,
        [deviceEmail, lang] as const,
      );
      expect(status).toBe(202);
      const deviceMail = await mailTo(deviceEmail);
      await page.goto(linkIn(deviceMail.text, '/alerts/confirm?token='));
      await page.getByText(t('alerts.confirmed_title')).waitFor();
      await page.goto(linkIn(deviceMail.text, '/alerts/manage?token='));
      const card = page.getByTestId('alert');
      await card.getByText(t('alerts.push_devices', { count: 1 })).waitFor();
      await screenshot(page, `alerts-manage-devices-${lang}`);
      await card.getByRole('button', { name: t('alerts.push_off') }).click();
      await page.getByText(t('alerts.push_turned_off')).first().waitFor();
      await card.getByText(t('alerts.push_devices', { count: 1 })).waitFor({ state: 'detached' });
      await page.close();
    }
  });

  it('subscribes from <poruch-search alerts> on another origin without any cookie', async () => {
    const env = { browser, server } as unknown as WidgetEnv;
    const { context, page, tracked } = await trackedContext(env);
    // Even in an installed app's window, a widget offers no push: it is not the app.
    await asInstalledApp(page);
    await page.goto(`${host.origin}/alerts.html`);
    const widget = page.locator('poruch-search');
    await widget.getByRole('button', { name: ua('alerts.notify_button') }).click();
    const dialog = widget.getByTestId('alert-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('alert-filters').innerText()).toContain('юрист');
    expect(await dialog.getByRole('checkbox', { name: ua('alerts.push_device') }).count()).toBe(0);
    await dialog.getByLabel(ua('field.email')).fill('widget@alerts.test');
    await screenshot(page, 'alerts-widget-dialog');
    await dialog.getByRole('button', { name: ua('alerts.submit') }).click();
    await dialog.getByText(ua('alerts.sent_title')).waitFor();
    expect((await mailTo('widget@alerts.test')).subject).toBe('Підтвердьте сповіщення Поруч');
    expect((await tracked.fetches()).every((f) => f.credentials === 'omit')).toBe(true);
    await tracked.expectNoCookies();
    await context.close();
  });
});
