import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { confirmationLabel, createI18n, translator } from '@poruch/core';
import { findPublicProfile } from '../repositories/catalogue.js';
import { searchCacheListening } from '../search/cache.js';
import { loggedIn, partner } from './helpers/actors.js';
import { cacheQuiet, setUsedCountSilently } from './helpers/cache.js';
import type { TestClient } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Performance of the profile page: `GET /services/:id` of an approved service is the prerendered
 * profile page with the profile's first screen drawn in by the server
 * (plugins/profileFirstScreen.ts), every value escaped; a missing or unapproved id gets the plain
 * page; the ETag follows the profile. Pages are kept in memory until the next write to services or
 * vacancies (plugins/profilePageCache.ts).
 */

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(raw) : raw;
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString() });
          });
        })
        .on('error', reject);
    },
  );
}

const SHELL =
  '<!doctype html><html lang="uk"><head><title>Poruch</title></head><body><div id="root">' +
  '<div inert="" class="app-prerendered"><main id="main"><div class="page-loading" role="status" ' +
  'aria-live="polite"><span class="spinner" aria-hidden="true"></span><span>Завантаження…</span>' +
  '</div></main></div></div></body></html>';
const SHADOW_CSS = '.profile__text { white-space: pre-line; }';
const PAGE_CSS = '.profile{max-width:52rem}';
const EVIL = `<img src=x onerror="alert(1)">'&</template></style><script>alert(2)</script>`;

describe('the profile page with its first screen', () => {
  let server: TestServer;
  let siteDir: string;
  let owner: Awaited<ReturnType<typeof partner>>;
  let admin: TestClient;

  beforeAll(async () => {
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-profile-'));
    await fs.writeFile(path.join(siteDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await fs.mkdir(path.join(siteDir, 'pages'));
    await fs.writeFile(path.join(siteDir, 'pages', 'profile.html'), SHELL);
    await fs.writeFile(path.join(siteDir, 'pages', 'profile-shadow.css'), SHADOW_CSS);
    await fs.writeFile(path.join(siteDir, 'pages', 'profile-page.css'), PAGE_CSS);
    await fs.writeFile(
      path.join(siteDir, 'pages', 'routes.json'),
      JSON.stringify([
        { name: 'profile', path: '/services/:id/:tab?', file: 'pages/profile.html' },
      ]),
    );
    server = await startTestServer({ NODE_ENV: 'production', SITE_DIR: siteDir });
    owner = await partner(server);
    admin = (await loggedIn(server, 'ADMIN')).client;
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(siteDir, { recursive: true, force: true });
  });

  const page = (id: string, headers?: Record<string, string>) =>
    get(`${server.url}/services/${id}`, headers);

  it('a pending (unapproved) or missing service gets the plain page, with nothing of it', async () => {
    const pending = await page(owner.serviceId);
    expect(pending.status).toBe(200);
    expect(pending.body).toBe(SHELL);
    expect(pending.body).not.toContain(owner.body.service.name);
    const missing = await page('0134d760-0001-4000-8000-00000000ffff');
    expect(missing.body).toBe(SHELL);
    expect(missing.headers.etag).toBe(pending.headers.etag);
    expect((await page('not-a-uuid')).body).toBe(SHELL);
  });

  it('an approved service: name (h1), country, category and description, escaped; ETag follows the profile', async () => {
    expect((await admin.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status).toBe(
      200,
    );
    const first = await page(owner.serviceId, { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.link).toContain(`</api/v1/services/${owner.serviceId}>; rel=preload`);
    const { service } = owner.body;
    expect(first.body).toContain(`<h1 part="title">Перукарня «Калина»</h1>`);
    expect(first.body).toContain('<span class="flag__name">Польща</span>');
    expect(first.body).toContain('<span>Краса та здоров’я</span>');
    expect(first.body).toContain(`<p class="profile__text">${service.descriptionUa}</p>`);
    // The approval confirmed it: "Confirmed <month year>" as the widget shows it, so nothing
    // moves when the widget replaces this screen.
    const profile = (await server.app.inject(`/api/v1/services/${owner.serviceId}`)).json();
    const label = confirmationLabel(translator(createI18n('ua')), 'ua', profile);
    expect(label).toMatch(/^Підтверджено: /);
    expect(first.body).toContain(
      `</p><p class="muted" part="confirmed" data-confirmation="current">${label}</p></header>`,
    );
    expect(first.body).toContain('<template shadowrootmode="open"><style>' + SHADOW_CSS);
    expect(first.body).toContain(`<style>${PAGE_CSS}</style></head>`);
    expect(first.body).not.toContain('page-loading');
    // Unchanged: 304.
    const again = await page(owner.serviceId, { 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);

    // The used count changes what the page shows: a new ETag.
    const mark = await admin.post(`/api/v1/services/${owner.serviceId}/used`, {
      browserId: 'first-screen-test-browser-1',
    });
    expect(mark.status).toBe(200);
    const used = await page(owner.serviceId, { 'if-none-match': first.headers.etag! });
    expect(used.status).toBe(200);
    expect(used.body).toContain('Скористалися: 1');
    expect(used.headers.etag).not.toBe(first.headers.etag);

    // An edit with markup in every field: pending again (the plain page), then approved.
    const edit = await owner.client.put(`/api/v1/my/services/${owner.serviceId}`, {
      ...service,
      name: `Name ${EVIL}`,
      descriptionUa: `Ua ${EVIL}`,
      descriptionOther: `Other ${EVIL}`,
    });
    expect(edit.status).toBe(200);
    expect((await page(owner.serviceId)).body).toBe(SHELL);
    expect((await admin.post(`/api/v1/admin/services/${owner.serviceId}/approve`)).status).toBe(
      200,
    );
    const edited = await page(owner.serviceId, { 'if-none-match': used.headers.etag! });
    expect(edited.status).toBe(200);
    expect(edited.headers.etag).not.toBe(used.headers.etag);
    const escaped =
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;&lt;/template&gt;&lt;/style&gt;&lt;script&gt;alert(2)&lt;/script&gt;';
    expect(edited.body).toContain(`<h1 part="title">Name ${escaped}</h1>`);
    expect(edited.body).toContain(`<p class="profile__text">Ua ${escaped}</p>`);
    expect(edited.body).toContain(`<p class="profile__text muted">Other ${escaped}</p>`);
    // The one script is the page's JSON-LD, whose `<` are escaped.
    expect(edited.body.match(/<script/g)).toEqual(['<script']);
    expect(edited.body).toContain('\\u003cscript>alert(2)\\u003c/script>');
    expect(edited.body).not.toContain('<img src=x');
    expect(edited.body.match(/<\/template>/g)).toHaveLength(1);
  });

  const silently = (id: string, usedCount: number) => setUsedCountSilently(server, id, usedCount);
  const quiet = () => cacheQuiet(server);
  const approve = async (id: string) =>
    expect((await admin.post(`/api/v1/admin/services/${id}/approve`)).status).toBe(200);

  it('a second view is served from memory: a row changed without a notification does not show, the next write through the app does', async () => {
    // Without the listener each view reads the generation, which a silent change does not move.
    await vi.waitFor(async () => expect(await searchCacheListening(server.app.db)).toBe(true));
    const other = await partner(server);
    const id = other.serviceId;
    await approve(id);
    await quiet();
    const first = await page(id);
    expect(first.body).toContain('Скористалися: 0');

    await silently(id, 41);
    // The row did change.
    expect((await findPublicProfile(server.database.db, id))?.usedCount).toBe(41);
    const second = await page(id);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect((await page(id, { 'if-none-match': first.headers.etag! })).status).toBe(304);

    // A used mark through the app retires the page before its response: the next view reads.
    const mark = await admin.post(`/api/v1/services/${id}/used`, {
      browserId: 'first-screen-cache-browser',
    });
    expect(mark.body).toEqual({ usedCount: 42, counted: true });
    const third = await page(id, { 'if-none-match': first.headers.etag! });
    expect(third.status).toBe(200);
    expect(third.body).toContain('Скористалися: 42');
    expect(third.headers.etag).not.toBe(first.headers.etag);
  });

  it('every kind of write shows on the next view: approval, used mark, vacancies, map, partner flag, edit, decline, deletion', async () => {
    await vi.waitFor(async () => expect(await searchCacheListening(server.app.db)).toBe(true));
    const other = await partner(server);
    const id = other.serviceId;
    const { service } = other.body;
    let last = await page(id);
    expect(last.body).toBe(SHELL);
    /** Views the page (after `write`), checks it changed and that a view right after is the same. */
    const next = async (write: () => Promise<{ status: number }>, shows: string | null) => {
      const before = await page(id);
      expect(before.body).toBe(last.body);
      expect([200, 201]).toContain((await write()).status);
      const after = await page(id);
      if (shows === null) expect(after.body).toBe(SHELL);
      else expect(after.body).toContain(shows);
      expect(after.body).not.toBe(last.body);
      expect(after.headers.etag).not.toBe(last.headers.etag);
      expect((await page(id)).body).toBe(after.body);
      last = after;
    };

    await next(() => admin.post(`/api/v1/admin/services/${id}/approve`), 'Скористалися: 0');
    await next(
      () => admin.post(`/api/v1/services/${id}/used`, { browserId: 'first-screen-writes' }),
      'Скористалися: 1',
    );
    let vacancyId = '';
    await next(async () => {
      const res = await other.client.post(`/api/v1/my/services/${id}/vacancies`, {
        name: 'Перукар',
      });
      vacancyId = res.body.id;
      return res;
    }, 'Вакансії (1)</a>');
    await next(
      () => other.client.put(`/api/v1/my/vacancies/${vacancyId}/open`, { isOpen: false }),
      'Вакансії (0)</a>',
    );
    // Hiding from the map changes nothing shown: a silent change (no notification) before it
    // shows only if the hiding's own notification retired the page.
    await quiet();
    expect((await page(id)).body).toBe(last.body);
    await silently(id, 7);
    expect((await page(id)).body).toBe(last.body);
    await next(
      () => other.client.put(`/api/v1/my/services/${id}/map`, { showOnMap: false }),
      'Скористалися: 7',
    );
    await next(
      () => admin.put(`/api/v1/admin/services/${id}/partner`, { isPartner: true }),
      'badge--open',
    );
    await next(
      () => other.client.put(`/api/v1/my/services/${id}`, { ...service, name: 'Салон «Верба»' }),
      null,
    );
    await next(() => admin.post(`/api/v1/admin/services/${id}/approve`), 'Салон «Верба»');
    await next(
      () => admin.post(`/api/v1/admin/services/${id}/decline`, { reason: 'Не той сервіс' }),
      null,
    );
    await next(() => admin.post(`/api/v1/admin/services/${id}/approve`), 'Салон «Верба»');
    await next(() => other.client.delete(`/api/v1/my/services/${id}`), null);
  });
});
