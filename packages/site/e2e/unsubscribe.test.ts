/**
 * The unsubscribe page with a real signed token: an administrator sends a campaign to self; without
 * SMTP_URL the server writes the mail to DATA_DIR/mail/*.eml, whose List-Unsubscribe header carries
 * the token (docs/mail.md). The page shows success for it, and failure for a tampered copy.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createAdmin,
  launchBrowser,
  makeDataDir,
  screenshot,
  startServer,
  type RunningServer,
} from './fixtures/index.js';
import { POLL, apiCall, newPage, seriousViolations, ua } from './helpers/screens.js';

let server: RunningServer;
let browser: Browser;
let token: string;

/** The token of the first mail in DATA_DIR/mail with a List-Unsubscribe header, or null. */
async function tokenFromMail(dataDir: string): Promise<string | null> {
  const dir = path.join(dataDir, 'mail');
  const files = await readdir(dir).catch(() => [] as string[]);
  for (const f of files.filter((n) => n.endsWith('.eml'))) {
    // Unfold folded header lines before reading the header.
    const text = (await readFile(path.join(dir, f), 'utf8')).replace(/\r?\n[ \t]+/g, ' ');
    const m = /^List-Unsubscribe:.*[?&]token=([A-Za-z0-9._-]+)/im.exec(text);
    if (m) return decodeURIComponent(m[1]!);
  }
  return null;
}

beforeAll(async () => {
  const dataDir = await makeDataDir();
  const admin = await createAdmin(dataDir, 'mailer@poruch.test');
  server = await startServer({ dataDir, env: { SEED_DEMO: 'false' } });
  browser = await launchBrowser();
  const context: BrowserContext = await browser.newContext();
  await apiCall(context, server.baseUrl, 'POST', 'auth/login', {
    email: admin.email,
    password: admin.password,
  });
  await apiCall(context, server.baseUrl, 'POST', 'admin/campaigns', {
    subject: 'Новини Poruch',
    content: 'Привіт!',
    statuses: ['approved'],
    categories: [],
    sendToSelf: true,
  });
  await context.close();
  // The outbox delivers asynchronously: wait for the mail file.
  token = await vi
    .waitUntil(() => tokenFromMail(dataDir), { timeout: 30_000, interval: 250 })
    .catch(() => {
      throw new Error(`no campaign mail with a List-Unsubscribe token:\n${server.output()}`);
    });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('unsubscribe page', () => {
  it('refuses a tampered token', async () => {
    const page = await newPage(browser, 375);
    const [id, sig] = token.split('.') as [string, string];
    const tampered = `${id}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    await page.goto(`${server.baseUrl}/unsubscribe?token=${encodeURIComponent(tampered)}`);
    const card = page.locator('[data-screen="unsubscribe"] [data-state]');
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('false');
    await page.getByText(ua('success.unsubscribe_failed')).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'unsubscribe-failed');
    await page.close();
  });

  it('unsubscribes with the token from the mail', async () => {
    const page = await newPage(browser, 375);
    await page.goto(`${server.baseUrl}/unsubscribe?token=${encodeURIComponent(token)}`);
    const card = page.locator('[data-screen="unsubscribe"] [data-state]');
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('true');
    await page.getByText(ua('success.unsubscribe_succeeded')).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'unsubscribe-succeeded');
    await page.close();
  });

  it('shows failure without a token', async () => {
    const page = await newPage(browser, 375);
    await page.goto(`${server.baseUrl}/unsubscribe`);
    const card = page.locator('[data-screen="unsubscribe"] [data-state]');
    await expect.poll(() => card.getAttribute('data-state'), POLL).toBe('false');
    await page.close();
  });
});
