import http from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type RunningServer } from './fixtures/index.js';

/**
 * A profile page's Link header preloads the widget's `GET /api/v1/services/:id`, and the
 * widget uses that response (one request, no "preloaded but not used" warning). Needs
 * `pnpm build` (site and server).
 */

function headers(url: string): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      })
      .on('error', reject);
  });
}

describe('profile page preload', () => {
  let server: RunningServer;
  let browser: Browser;
  let serviceId: string;

  beforeAll(async () => {
    server = await startServer({ env: { TILE_URL: 'none' } });
    browser = await launchBrowser();
    const list = (await (await fetch(`${server.baseUrl}/api/v1/services?pageSize=1`)).json()) as {
      items: { id: string }[];
    };
    serviceId = list.items[0]!.id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a profile page (and its tabs) carries the Link preload of its API call; other pages none', async () => {
    const link = `</api/v1/services/${serviceId}>; rel=preload; as=fetch; crossorigin=anonymous`;
    expect((await headers(`${server.baseUrl}/services/${serviceId}`)).link).toBe(link);
    expect((await headers(`${server.baseUrl}/services/${serviceId}/contacts`)).link).toBe(link);
    expect((await headers(`${server.baseUrl}/`)).link).toBeUndefined();
    expect((await headers(`${server.baseUrl}/about`)).link).toBeUndefined();
    // The id is escaped: no header injection, no second link.
    const odd = await headers(`${server.baseUrl}/services/a%3E%2C%3C%2Fx%3E`);
    expect(odd.link).toBe(
      '</api/v1/services/a%3E%252C%3C%252Fx%3E>; rel=preload; as=fetch; crossorigin=anonymous',
    );
  });

  it('the widget uses the preloaded answer: one request, no unused-preload warning', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 } });
    const apiUrl = `${server.baseUrl}/api/v1/services/${serviceId}`;
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url() === apiUrl) requests.push(r.method());
    });
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (/preload/i.test(m.text())) warnings.push(m.text());
    });
    await page.goto(`${server.baseUrl}/services/${serviceId}`);
    // The widget's heading is the service's name, from the answer.
    const name = ((await (await fetch(apiUrl)).json()) as { name: string }).name;
    await page.locator('poruch-service, [data-screen="profile"]').first().waitFor();
    await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
    // The heading shows the answer, and one request brought it: the widget used the preload. An
    // unused preload (say, another credentials mode) would show as a second request of the
    // widget's own now, and as Chrome's warning only seconds after load.
    expect(requests).toEqual(['GET']);
    expect(warnings).toEqual([]);
    await page.close();
  });
});
