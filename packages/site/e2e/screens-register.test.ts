import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectErrors,
  launchBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import {
  exactLabel,
  expectAccessible,
  loginUi,
  POLL,
  newPage,
  required,
  screen,
  ua,
} from './helpers/screens.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const EMAIL = 'olena@poruch.test';
const PASSWORD = 'dobryi-den-42';

describe('registration (provide-help)', () => {
  it('validates every field, walks the address branches and registers', async () => {
    const page = await newPage(browser, 1280);
    const errors = collectErrors(page);
    const geocodes: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/geocode')) geocodes.push(r.url());
    });
    await page.goto(`${server.baseUrl}/provide-help`);
    await screen(page, 'provide-help');
    await screenshot(page, 'screens-register-empty');
    await expectAccessible(page);

    // Nothing filled: the validation messages under their fields, nothing sent.
    await page.getByRole('button', { name: ua('registration.submit') }).click();
    const form = page.locator('form');
    await expect.poll(() => form.getByText(required('firstName')).count(), POLL).toBe(1);
    expect(await form.getByText(required('email')).count()).toBe(1);
    expect(await form.getByText(ua('validation.must_agree')).count()).toBeGreaterThan(0);
    // The form moves the focus to the first broken field in an effect, after the messages show.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id), POLL)
      .toBe('register-account-firstName');

    await page.getByLabel(ua('field.firstName')).fill('Олена');
    await page.getByLabel(ua('field.lastName')).fill('Коваль');
    await page.getByLabel(ua('field.email')).fill('not-an-email');
    await page.getByLabel(exactLabel(ua('field.password'))).fill('short');
    await page.getByLabel(ua('field.confirmPassword')).fill('different');
    await page.getByLabel(ua('registration.company_name')).fill('Перукарня «Поруч»');
    await page.getByLabel(ua('field.website')).fill('example.com');
    await page.getByRole('button', { name: ua('registration.submit') }).click();
    await expect
      .poll(
        () => form.getByText(ua('validation.email', { email: 'name@example.com' })).count(),
        POLL,
      )
      .toBe(1);
    expect(await form.getByText(ua('validation.min_length', { length: 8 })).count()).toBe(1);
    expect(await form.getByText(ua('validation.passwords_must_match')).count()).toBe(1);
    expect(await form.getByText(ua('validation.link', { host: 'https://' })).count()).toBe(1);
    expect(await form.getByText(required('countryCode')).count()).toBe(1);
    // Nothing typed was lost.
    expect(await page.getByLabel(ua('field.firstName')).inputValue()).toBe('Олена');
    expect(await page.getByLabel(ua('field.website')).inputValue()).toBe('example.com');
    await screenshot(page, 'screens-register-errors');

    await page.getByLabel(ua('field.email')).fill(EMAIL);
    await page.getByLabel(exactLabel(ua('field.password'))).fill(PASSWORD);
    await page.getByLabel(ua('field.confirmPassword')).fill(PASSWORD);
    await page.getByLabel(ua('field.website')).fill('https://example.com');
    await page.getByLabel(ua('field.countryCode')).selectOption('US');
    await page.getByLabel(ua('field.category')).selectOption('beauty_and_health');

    // A wrong address.
    const address = page.getByLabel(ua('field.address'));
    await address.fill('Qwzxyvbnm Plkjhgf');
    await page.getByRole('button', { name: ua('registration.find_address') }).click();
    await expect.poll(() => form.getByText(ua('validation.wrong_address')).count(), POLL).toBe(1);
    expect(await form.getByLabel(ua('field.addressConfirmed')).count()).toBe(0);

    // An ambiguous one: the options, pick one, then the confirmation.
    await address.fill('Paris');
    await page.getByRole('button', { name: ua('registration.find_address') }).click();
    await expect
      .poll(() => form.getByText(ua('validation.ambiguous_address')).count(), POLL)
      .toBe(1);
    const options = page
      .getByRole('group', { name: ua('registration.choose_address') })
      .getByRole('radio');
    expect(await options.count()).toBeGreaterThan(1);
    await screenshot(page, 'screens-register-ambiguous');
    await options.first().check();
    const confirmBox = page.getByLabel(ua('field.addressConfirmed'));
    await confirmBox.waitFor();
    expect(geocodes.every((u) => u.includes('country=US'))).toBe(true);

    // Submitting without the confirmation and the terms: both must be ticked.
    await page.getByRole('button', { name: ua('registration.submit') }).click();
    await expect.poll(() => form.getByText(ua('validation.must_agree')).count(), POLL).toBe(2);
    await confirmBox.check();
    await page.getByLabel(ua('field.termsAgreed')).check();
    await screenshot(page, 'screens-register-filled');
    await page.getByRole('button', { name: ua('registration.submit') }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await screen(page, 'dashboard');
    await expect
      .poll(() => page.getByText(ua('success.registered')).count(), POLL)
      .toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows email_is_used on the e-mail field with a login link', async () => {
    const page = await newPage(browser, 375);
    await page.goto(`${server.baseUrl}/provide-help`);
    await screen(page, 'provide-help');
    await page.getByLabel(ua('field.firstName')).fill('Іван');
    await page.getByLabel(ua('field.email')).fill(EMAIL.toUpperCase());
    await page.getByLabel(exactLabel(ua('field.password'))).fill(PASSWORD);
    await page.getByLabel(ua('field.confirmPassword')).fill(PASSWORD);
    await page.getByLabel(ua('registration.company_name')).fill('Online school');
    await page.getByLabel(ua('field.countryCode')).selectOption('DE');
    await page.getByLabel(ua('field.isOnline')).check();
    await page.getByLabel(ua('field.termsAgreed')).check();
    await page.getByRole('button', { name: ua('registration.submit') }).click();
    const email = page.locator('#register-account-email-error');
    await expect.poll(() => email.textContent(), POLL).toContain(ua('error.email_is_used'));
    expect(
      await page
        .getByRole('link', { name: ua('registration.login_instead') })
        .first()
        .getAttribute('href'),
    ).toBe('/login');
    await page.close();
  });
});

describe('login and logout', () => {
  it('returns to `back` after login, goes to /login after logout, and says when the password is wrong', async () => {
    const page = await newPage(browser, 1280);
    const errors = collectErrors(page);
    await page.goto(`${server.baseUrl}/dashboard/services`);
    await page.waitForURL(/\/login\?back=/);
    expect(new URL(page.url()).searchParams.get('back')).toBe('/dashboard/services');
    await screen(page, 'login');
    await screenshot(page, 'screens-login');
    await expectAccessible(page);

    await page.getByRole('button', { name: ua('login.submit') }).click();
    await expect.poll(() => page.getByText(required('email')).count(), POLL).toBe(1);

    await loginUi(page, EMAIL, 'wrong-password-1');
    await expect
      .poll(
        () =>
          page
            .getByRole('alert')
            .filter({ hasText: ua('error.wrong_user_or_password') })
            .count(),
        POLL,
      )
      .toBeGreaterThan(0);
    expect(await page.getByLabel(ua('field.email')).inputValue()).toBe(EMAIL);

    await page.getByLabel(exactLabel(ua('field.password'))).fill(PASSWORD);
    await page.getByRole('button', { name: ua('login.submit') }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/services`);
    await screen(page, 'dashboard');
    const card = page.locator('[data-service-id]');
    await card.first().waitFor();
    expect(await card.first().textContent()).toContain(ua('service_status.pending'));

    // A logged-in user is sent away from the logged-out-only screens.
    await page.goto(`${server.baseUrl}/login`);
    await page.waitForURL(`${server.baseUrl}/`);

    await page.goto(`${server.baseUrl}/dashboard`);
    await screen(page, 'dashboard');
    await page
      .getByRole('button', { name: ua('menu.logout') })
      .first()
      .click();
    await page.waitForURL(`${server.baseUrl}/login`);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await page.close();
  });

  it('resets the password with the success message', async () => {
    const page = await newPage(browser, 1280);
    await page.goto(`${server.baseUrl}/reset-password`);
    await screen(page, 'reset-password');
    await page.getByLabel(ua('field.email')).fill(EMAIL);
    await page.getByRole('button', { name: ua('reset_password.submit') }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: ua('success.temporary_password_sent') })
            .count(),
        POLL,
      )
      .toBeGreaterThan(0);
    await screenshot(page, 'screens-reset-password');
    await expectAccessible(page);
    await page.close();
  });
});
