import { readFile } from 'node:fs/promises';
import { createI18n, formatDate, translator, type LocaleCode } from '@poruch/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import {
  POLL,
  acceptConfirm,
  expectAccessible,
  loginUi,
  registerPartner,
  screen,
  ua,
} from './helpers/screens.js';

let server: RunningServer;
let browser: Browser;
let admin: { email: string; password: string };
let partner: BrowserContext;
let partnerPage: Page;
let serviceId: string;

const PARTNER_EMAIL = 'partner@poruch.test';
const PARTNER_PASSWORD = 'partner-pass-42';

beforeAll(async () => {
  const dataDir = await makeDataDir();
  admin = await createAdmin(dataDir, 'admin@poruch.test', { isSuper: true });
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();
  partner = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await partner.addInitScript(() => {
    localStorage.setItem('cookies_banner_essentials', 'true');
    localStorage.setItem('cookies_banner_marketing', 'false');
  });
  const registered = await registerPartner(
    partner,
    server.baseUrl,
    PARTNER_EMAIL,
    PARTNER_PASSWORD,
    'Перукарня «Поруч»',
  );
  serviceId = registered.service.id;
  partnerPage = await partner.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const toast = (page: Page, key: string) => page.getByText(ua(key)).first();

describe('partner', () => {
  it('sees the account, changes personal data', async () => {
    const page = partnerPage;
    await page.goto(`${server.baseUrl}/dashboard`);
    await screen(page, 'dashboard');
    await page.getByLabel(ua('field.lastName')).fill('Коваленко');
    await page.getByRole('button', { name: ua('personal_data.submit') }).click();
    await toast(page, 'success.data_changed').waitFor();
    await screenshot(page, 'screens-dashboard-account');
    await expectAccessible(page);
  });

  it('downloads their own data as JSON', async () => {
    const page = partnerPage;
    await page.goto(`${server.baseUrl}/dashboard`);
    await screen(page, 'dashboard');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ua('account.export_data') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^poruch-account-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.path();
    const data = JSON.parse(await readFile(file, 'utf8'));
    expect(data.account.email).toBe(PARTNER_EMAIL);
    expect(data.account.lastName).toBe('Коваленко');
    expect(data.services.map((x: { id: string }) => x.id)).toContain(serviceId);
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|password_hash|scrypt\$\d/i);
  });

  it('manages services: hide from the map, edit with the review notice, add', async () => {
    const page = partnerPage;
    await page.goto(`${server.baseUrl}/dashboard/services`);
    const card = page.locator(`[data-service-id="${serviceId}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain(ua('service_status.pending'));
    await card.getByRole('button', { name: ua('my_services.hide_from_map') }).click();
    await toast(page, 'success.service_removed_from_map').waitFor();
    await card.getByRole('button', { name: ua('my_services.show_on_map') }).click();
    await toast(page, 'success.service_shown_on_map').waitFor();
    await screenshot(page, 'screens-dashboard-services');
    await expectAccessible(page);

    await card.getByRole('link', { name: ua('common.edit') }).click();
    await page.getByText(ua('my_services.edit_notice')).waitFor();
    await page.getByLabel(ua('field.descriptionOther')).fill('The best hair salon in Warsaw');
    await page.getByRole('button', { name: ua('common.save') }).click();
    await toast(page, 'success.service_updated').waitFor();
    await page.waitForURL(`${server.baseUrl}/dashboard/services`);

    await page
      .getByRole('link', { name: ua('my_services.add_service') })
      .first()
      .click();
    await page.getByLabel(ua('registration.company_name')).fill('Онлайн-школа');
    await page.getByLabel(ua('field.countryCode')).selectOption('DE');
    await page.getByLabel(ua('field.isOnline')).check();
    await screenshot(page, 'screens-dashboard-add-service');
    await page.getByRole('button', { name: ua('add_service.submit') }).click();
    await toast(page, 'success.service_created').waitFor();
    await page.waitForURL(/\/dashboard\/services\/[0-9a-f-]{36}$/);
  });

  it('manages vacancies: add, edit, open toggle, delete', async () => {
    const page = partnerPage;
    await page.goto(`${server.baseUrl}/dashboard/services/${serviceId}`);
    const panel = page.locator('#vacancies');
    await panel.getByText(ua('vacancies.empty')).waitFor();
    await panel.getByRole('button', { name: ua('vacancies.add') }).click();
    await panel.getByRole('button', { name: ua('common.save') }).click();
    await expect
      .poll(
        () => panel.getByText(ua('validation.required', { name: ua('field.name') })).count(),
        POLL,
      )
      .toBe(1);
    await panel.getByLabel(ua('vacancies.name')).fill('Перукар');
    await panel.getByLabel(ua('field.salary')).fill('3000 PLN');
    await panel.getByLabel(ua('field.experience')).selectOption('one_two');
    await panel.getByRole('button', { name: ua('common.save') }).click();
    await toast(page, 'success.vacancy_created').waitFor();
    const item = panel.locator('[data-vacancy-id]');
    await item.waitFor();
    expect(await item.textContent()).toContain(ua('vacancies.open'));

    await item.getByRole('button', { name: `${ua('vacancies.edit')}: Перукар` }).click();
    await panel.getByLabel(ua('vacancies.name')).fill('Старший перукар');
    await panel.getByRole('button', { name: ua('common.save') }).click();
    await toast(page, 'success.vacancy_updated').waitFor();
    await panel.getByText('Старший перукар').waitFor();

    await item.getByLabel(ua('vacancies.toggle_open')).uncheck();
    await expect.poll(() => item.textContent(), POLL).toContain(ua('vacancies.closed'));
    await item.getByLabel(ua('vacancies.toggle_open')).check();
    await expect.poll(() => item.textContent(), POLL).toContain(ua('vacancies.open'));
    await screenshot(page, 'screens-dashboard-edit-service');
    await expectAccessible(page);

    // A second one to delete, after the confirmation.
    await panel.getByRole('button', { name: ua('vacancies.add') }).click();
    await panel.getByLabel(ua('vacancies.name')).fill('Адміністратор салону');
    await panel.getByRole('button', { name: ua('common.save') }).click();
    await toast(page, 'success.vacancy_created').waitFor();
    await panel
      .getByRole('button', { name: `${ua('vacancies.delete')}: Адміністратор салону` })
      .click();
    await acceptConfirm(page);
    await toast(page, 'success.vacancy_deleted').waitFor();
    await expect.poll(() => panel.locator('[data-vacancy-id]').count(), POLL).toBe(1);
  });
});

describe('admin', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
      // A browser locale that is neither interface language (so the site starts in Ukrainian):
      // dates must follow the app's language, not this. The time zone is this process's, so the
      // test can format the same.
      locale: 'de-DE',
      timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    await context.addInitScript(() => {
      localStorage.setItem('cookies_banner_essentials', 'true');
      localStorage.setItem('cookies_banner_marketing', 'false');
    });
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/login?back=%2Fadmin`);
    await screen(page, 'login');
    await loginUi(page, admin.email, admin.password);
    await page.waitForURL(`${server.baseUrl}/admin`);
  });

  it('lists clients with filters; a 1–2 character search shows the hint and calls nothing', async () => {
    await screen(page, 'admin');
    const rows = page.locator('.data-table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/admin/services?')) calls.push(r.url());
    });
    await page.getByLabel(ua('field.search')).fill('Пе');
    // Proves that nothing is called, so a bounded wait: the list asks 300 ms after the last key.
    await page.waitForTimeout(700);
    expect(calls).toEqual([]);
    expect(await page.locator('#admin-search-error').textContent()).toContain(
      ua('admin.search_min', { length: 3 }),
    );
    await page.getByLabel(ua('field.search')).fill('Перукарня');
    await expect.poll(() => calls.length, POLL).toBeGreaterThan(0);
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('Перукарня');

    await page.getByRole('button', { name: ua('admin.filter_expand') }).click();
    await page.getByLabel(ua('field.status')).selectOption('pending');
    await expect.poll(() => new URL(page.url()).searchParams.get('status'), POLL).toBe('pending');
    await screenshot(page, 'screens-admin-list');
    await expectAccessible(page);
  });

  it('declines with a reason the owner sees, approves, marks partner', async () => {
    await page.goto(`${server.baseUrl}/admin/services/${serviceId}`);
    await page.getByRole('heading', { name: /Перукарня/ }).waitFor();
    await page.getByRole('button', { name: ua('admin.decline') }).click();
    await page.getByLabel(ua('admin.decline_reason')).fill('Додайте опис українською');
    await page
      .locator('form')
      .getByRole('button', { name: ua('admin.decline') })
      .click();
    await acceptConfirm(page);
    await toast(page, 'success.service_declined').waitFor();
    await screenshot(page, 'screens-admin-review');
    await expectAccessible(page);

    await partnerPage.goto(`${server.baseUrl}/dashboard/services`);
    const card = partnerPage.locator(`[data-service-id="${serviceId}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain('Додайте опис українською');
    expect(await card.textContent()).toContain(ua('service_status.declined'));

    await page.getByRole('button', { name: ua('admin.approve') }).click();
    await toast(page, 'success.service_approved').waitFor();
    await page.getByRole('button', { name: ua('admin.mark_partner') }).click();
    await toast(page, 'success.partner_status_changed').waitFor();
    await page.getByRole('button', { name: ua('admin.unmark_partner') }).waitFor();
  });

  it('shows the approved profile with tabs, and the visitor reports it', async () => {
    const visitor = await browser.newPage({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    await visitor.addInitScript(() => localStorage.setItem('cookies_banner_essentials', 'true'));
    await visitor.goto(`${server.baseUrl}/services/${serviceId}`);
    await visitor.getByRole('heading', { name: /Перукарня/ }).waitFor();
    await visitor
      .getByRole('link', { name: new RegExp(ua('service_profile.tab_vacancies')) })
      .click();
    await visitor.getByText('Старший перукар').waitFor();
    await visitor.getByRole('link', { name: ua('service_profile.tab_contacts') }).click();
    await visitor.getByText('+48 123 456 789').waitFor();
    await visitor.getByRole('button', { name: ua('home.used_service') }).click();
    await expect
      .poll(() => visitor.getByText(ua('home.used_count', { count: 1 })).count(), POLL)
      .toBe(1);
    await visitor.getByRole('button', { name: ua('report_form.open') }).click();
    await visitor.getByLabel(ua('report_reason.no_contact')).check();
    await visitor.getByLabel(ua('field.description')).fill('Телефон не відповідає');
    await screenshot(visitor, 'screens-profile');
    await expectAccessible(visitor);
    await visitor.getByRole('button', { name: ua('report_form.submit') }).click();
    await toast(visitor, 'success.report_sent').waitFor();
    expect(
      await visitor
        .getByRole('link', { name: new RegExp(ua('service_profile.back_to_list')) })
        .getAttribute('href'),
    ).toBe('/');
    await visitor.close();
  });

  it('shows the profile in English, follows the tab links by keyboard, and says when a profile is not found', async () => {
    const en = translator(createI18n('en_GB'));
    const visitor = await browser.newPage({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    await visitor.addInitScript(() => {
      localStorage.setItem('cookies_banner_essentials', 'true');
      localStorage.setItem('locale', 'en_GB');
    });
    await visitor.goto(`${server.baseUrl}/services/${serviceId}`);
    await visitor.getByRole('heading', { level: 1, name: /Перукарня/ }).waitFor();
    await visitor.getByText('The best hair salon in Warsaw').waitFor();
    const tab = visitor.getByRole('link', {
      name: new RegExp(en('service_profile.tab_vacancies')),
    });
    expect(await tab.getAttribute('href')).toBe(`/services/${serviceId}/vacancies`);
    await tab.focus();
    await visitor.keyboard.press('Enter');
    await visitor.waitForURL(`${server.baseUrl}/services/${serviceId}/vacancies`);
    await visitor.getByText('Старший перукар').waitFor();
    expect(await tab.getAttribute('aria-current')).toBe('page');
    expect(await visitor.title()).toContain('Перукарня');
    const ld = await visitor.locator('script[type="application/ld+json"]').textContent();
    expect(ld).toContain('"LocalBusiness"');
    expect(ld).toContain('"JobPosting"');
    await screenshot(visitor, 'screens-profile-en');
    await expectAccessible(visitor);

    await visitor.goto(`${server.baseUrl}/services/00000000-0000-4000-8000-000000000000`);
    await visitor
      .getByRole('alert')
      .filter({ hasText: en('service_profile.not_found') })
      .waitFor();
    expect(
      await visitor
        .getByRole('link', { name: new RegExp(en('service_profile.back_to_list')) })
        .getAttribute('href'),
    ).toBe('/');
    await screenshot(visitor, 'screens-profile-not-found');
    await expectAccessible(visitor);
    await visitor.close();
  });

  it('shows dates in the interface language, whatever the browser locale', async () => {
    /** Opens `path` in `locale` and returns the `createdAt` of the admin API answer at `api`. */
    const open = async (path: string, api: string, locale: LocaleCode) => {
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      const answer = page.waitForResponse((r) => r.url().includes(`/api/v1/admin/${api}`));
      await page.goto(`${server.baseUrl}${path}`);
      const body = (await (await answer).json()) as {
        createdAt?: string;
        items?: { createdAt: string }[];
      };
      return body.createdAt ?? body.items![0]!.createdAt;
    };
    try {
      for (const locale of ['ua', 'en_GB'] as const) {
        const created = await open(`/admin/services/${serviceId}`, `services/${serviceId}`, locale);
        await page.getByText(formatDate(created, locale)).waitFor();
        const reported = await open('/admin/reports', 'reports?', locale);
        const report = page.locator('[data-report-id]');
        await report.waitFor();
        expect(await report.textContent()).toContain(formatDate(reported, locale));
      }
      // The browser's own format differs from both, so a date it formats would fail above.
      const date = '2026-11-25T14:05:00Z';
      const own = await page.evaluate((d) => new Date(d).toLocaleString(), date);
      expect([formatDate(date, 'ua'), formatDate(date, 'en_GB')]).not.toContain(own);
    } finally {
      await page.evaluate(() => localStorage.setItem('locale', 'ua'));
    }
  });

  it('resolves the report after the close confirmation', async () => {
    await page.goto(`${server.baseUrl}/admin/reports`);
    const report = page.locator('[data-report-id]');
    await report.waitFor();
    expect(await report.textContent()).toContain('Телефон не відповідає');
    await screenshot(page, 'screens-admin-reports');
    await expectAccessible(page);
    await report.getByRole('button', { name: ua('reports.resolve') }).click();
    await acceptConfirm(page);
    await toast(page, 'success.report_resolved').waitFor();
    await page.getByText(ua('reports.empty')).waitFor();
  });

  it('sends a campaign to self and shows its progress', async () => {
    await page.goto(`${server.baseUrl}/admin/campaigns`);
    await page.getByRole('button', { name: ua('email_sender.submit') }).click();
    await expect
      .poll(
        () => page.getByText(ua('validation.required', { name: ua('field.subject') })).count(),
        POLL,
      )
      .toBe(1);
    await page.getByLabel(ua('field.subject')).fill('Новини Poruch');
    await page.getByLabel(ua('field.content')).fill('Привіт! **Дякуємо**, що ви з нами.');
    await page.getByLabel(ua('service_status.approved')).check();
    await screenshot(page, 'screens-admin-campaigns');
    await expectAccessible(page);
    await page.getByRole('button', { name: ua('email_sender.submit') }).click();
    await acceptConfirm(page);
    await page.locator('[data-campaign-state="done"]').waitFor({ timeout: 30_000 });
    await toast(page, 'success.emails_sent').waitFor();
  });

  it('adds an administrator and shows the password once', async () => {
    await page.goto(`${server.baseUrl}/admin/administrators`);
    await page.getByLabel(ua('field.email')).fill('second-admin@poruch.test');
    await page.getByLabel(ua('field.firstName')).fill('Марія');
    await page.getByRole('button', { name: ua('admin.add_administrator') }).click();
    await toast(page, 'success.administrator_added').waitFor();
    const secret = page.getByTestId('generated-password');
    expect((await secret.textContent())?.length).toBeGreaterThanOrEqual(12);
    await screenshot(page, 'screens-admin-administrators');
    await expectAccessible(page);
  });

  it('deletes the partner account after the confirmation', async () => {
    const p = partnerPage;
    await p.goto(`${server.baseUrl}/dashboard`);
    await screen(p, 'dashboard');
    await p.getByRole('button', { name: ua('account_deletion.submit') }).click();
    await p.locator('#deletion-currentPassword').fill(PARTNER_PASSWORD);
    await p
      .locator('form')
      .filter({ has: p.locator('#deletion-currentPassword') })
      .getByRole('button', { name: ua('account_deletion.submit') })
      .click();
    await acceptConfirm(p);
    await p.waitForURL(`${server.baseUrl}/login`);
    await toast(p, 'success.account_deleted').waitFor();
  });
});
