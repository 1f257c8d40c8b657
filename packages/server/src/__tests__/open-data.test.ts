import http from 'node:http';
import { OPEN_DATA_FIELDS } from '@poruch/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, reports, services } from '../db/schema.js';
import { OPEN_DATA_PAGE_ROWS, openDataStream, openDataVersion } from '../openData/services.js';
import { loggedIn } from './helpers/actors.js';
import { rawGet } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Open data (docs/open-data.md): `GET /api/v1/open-data/services.csv` and `.geojson` hold every
 * publicly visible service with its public fields only, round-trip through a strict CSV reader
 * and JSON, carry an ETag that follows the data (304 on a match), and are written as they are
 * read.
 */

const PUBLIC_URL = 'https://poruch.example';
const OWNER_EMAIL = 'owner-secret@example.org';
const REPORT_TEXT = 'reporter secret text';

/**
 * A strict RFC 4180 reader: CRLF between records and after the last, commas between fields,
 * a quoted field may hold commas, CR, LF and doubled quotes; an unquoted one none of those.
 * Throws on anything else.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
          if (text[i] === '"' || text[i] === '\n') throw new Error(`bare ${text[i]} at ${i}`);
          field += text[i++];
        }
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`expected , or CRLF at ${i}`);
    }
    records.push(record);
  }
  return records;
}

/** The body's chunks as they arrive, each with the time it came. */
function chunked(url: string) {
  return new Promise<{ chunks: { at: number; size: number }[]; end: number; body: string }>(
    (resolve, reject) => {
      http
        .get(url, (res) => {
          const chunks: { at: number; size: number }[] = [];
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => {
            chunks.push({ at: performance.now(), size: c.length });
            parts.push(c);
          });
          res.on('end', () =>
            resolve({ chunks, end: performance.now(), body: Buffer.concat(parts).toString() }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    },
  );
}

const NASTY = [
  '=HYPERLINK("http://evil.example","click")',
  '+48 600 100 200',
  '-2+3',
  '@SUM(A1:A2)',
  '\tTabbed',
  '\rReturn',
  'Comma, "quotes" and\nnewline\r\nand CRLF',
  'Плитка «Зоря»; ’апостроф',
];

describe('open data', () => {
  let server: TestServer;
  const visible: string[] = [];
  let withPosition: string;
  let hiddenFromMap: string;
  let pendingId: string;
  let nastyIds: Map<string, string>;

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL });
    const db = server.database.db;
    const [owner] = await db
      .insert(accounts)
      .values({ email: OWNER_EMAIL, passwordHash: 'x', type: 'PARTNER', firstName: 'Secretname' })
      .returning();
    const base = {
      ownerId: owner!.id,
      countryCode: 'PL',
      category: 'legal_services' as const,
      address: 'ul. Marszałkowska 10, Warszawa',
      addressDetails: {
        lat: 52.2297,
        lng: 21.0122,
        displayName: 'Warszawa',
        city: 'Warszawa',
        countryCode: 'PL',
        approximate: true,
        source: 'gazetteer',
      },
      lat: 52.2297,
      lng: 21.0122,
      website: 'https://example.org',
      phone: '+48 600 100 200',
      descriptionUa: 'Опис',
      descriptionOther: 'Description',
      status: 'approved' as const,
      marketingConsent: true,
    };
    const insert = async (values: Partial<typeof services.$inferInsert> & { name: string }) => {
      const [row] = await db
        .insert(services)
        .values({ ...base, ...values })
        .returning({ id: services.id });
      return row!.id;
    };
    withPosition = await insert({ name: 'Адвокат Коваль', lat: 50.45, lng: 30.52 });
    hiddenFromMap = await insert({ name: 'Прихована адреса', showOnMap: false });
    const online = await insert({ name: 'Онлайн-курси', isOnline: true, lat: null, lng: null });
    nastyIds = new Map();
    for (const name of NASTY) nastyIds.set(await insert({ name, descriptionOther: name }), name);
    visible.push(withPosition, hiddenFromMap, online, ...nastyIds.keys());
    pendingId = await insert({ name: 'Pending', status: 'pending' });
    await insert({ name: 'Declined', status: 'declined', declineReason: 'admin secret reason' });
    const lapsed = await insert({ name: 'Lapsed' });
    await db.execute(sql`UPDATE services SET confirmation = 'lapsed' WHERE id = ${lapsed}`);
    await db.insert(reports).values({
      serviceId: withPosition,
      reason: 'no_contact',
      description: REPORT_TEXT,
      reporterId: owner!.id,
    });
    visible.sort();
  });
  afterAll(() => server?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawGet(`${server.url}${path}`, headers);

  it('CSV: a header row and one record per visible service, every value round-tripping', async () => {
    const res = await get('/api/v1/open-data/services.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = res.body.toString('utf8');
    const [header, ...records] = parseCsv(text);
    expect(header).toEqual(OPEN_DATA_FIELDS);
    const rows = records.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
    expect(rows.map((r) => r.id)).toEqual(visible);
    for (const [id, name] of nastyIds) {
      const row = rows.find((r) => r.id === id)!;
      // A cell a spreadsheet would run as a formula starts with an apostrophe; the rest as is.
      const expected = /^[=+\-@\t\r]/.test(name) ? `'${name}` : name;
      expect(row.name).toBe(expected);
      expect(row.descriptionOther).toBe(expected);
    }
    expect(rows.find((r) => r.id === withPosition)).toMatchObject({
      name: 'Адвокат Коваль',
      lat: '50.45',
      lng: '30.52',
      city: 'Warszawa',
      isOnline: 'false',
      url: `${PUBLIC_URL}/services/${withPosition}`,
    });
    // The owner hid it from the map: no position.
    expect(rows.find((r) => r.id === hiddenFromMap)).toMatchObject({ lat: '', lng: '' });
    for (const secret of [OWNER_EMAIL, 'Secretname', REPORT_TEXT, 'admin secret reason']) {
      expect(text).not.toContain(secret);
    }
  });

  it('GeoJSON: a FeatureCollection with its licence, a Point [lng, lat] per located service and the public fields only', async () => {
    const res = await get('/api/v1/open-data/services.geojson');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/geo+json');
    const text = res.body.toString('utf8');
    const doc = JSON.parse(text) as {
      type: string;
      license: { spdx: string; url: string };
      features: {
        type: string;
        id: string;
        geometry: { type: string; coordinates: number[] } | null;
        properties: Record<string, unknown>;
      }[];
    };
    expect(doc.type).toBe('FeatureCollection');
    expect(doc.license).toMatchObject({
      spdx: 'ODbL-1.0',
      url: 'https://opendatacommons.org/licenses/odbl/1-0/',
    });
    expect(doc.features.map((f) => f.id)).toEqual(visible);
    const properties = OPEN_DATA_FIELDS.filter((f) => f !== 'lat' && f !== 'lng').sort();
    for (const f of doc.features) {
      expect(f.type).toBe('Feature');
      expect(Object.keys(f.properties).sort()).toEqual(properties);
      expect(f.properties.id).toBe(f.id);
    }
    const byId = new Map(doc.features.map((f) => [f.id, f]));
    expect(byId.get(withPosition)!.geometry).toEqual({
      type: 'Point',
      coordinates: [30.52, 50.45],
    });
    expect(byId.get(hiddenFromMap)!.geometry).toBeNull();
    for (const [id, name] of nastyIds) expect(byId.get(id)!.properties.name).toBe(name);
    for (const secret of [OWNER_EMAIL, 'Secretname', REPORT_TEXT, 'admin secret reason']) {
      expect(text).not.toContain(secret);
    }
  });

  it('each format has an ETag that follows the exported data: 304 on a match, a new tag after a change', async () => {
    for (const path of ['/api/v1/open-data/services.csv', '/api/v1/open-data/services.geojson']) {
      const first = await get(path);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=300, s-maxage=3600');
      const again = await get(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      // HEAD: the headers alone, without reading the services.
      const head = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.request(`${server.url}${path}`, { method: 'HEAD' }, resolve).on('error', reject).end(),
      );
      expect(head.statusCode).toBe(200);
      expect(head.headers.etag).toBe(etag);

      // A service nobody sees changes nothing of the file.
      await server.database.db
        .update(services)
        .set({ name: `Pending ${Math.random()}` })
        .where(eq(services.id, pendingId));
      expect((await get(path, { 'if-none-match': etag })).status).toBe(304);

      // An exported field changes: a new tag.
      await server.database.db
        .update(services)
        .set({ website: `https://example.org/${Math.random()}` })
        .where(eq(services.id, withPosition));
      const changed = await get(path, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    }
    const csv = await get('/api/v1/open-data/services.csv');
    const geojson = await get('/api/v1/open-data/services.geojson');
    expect(csv.headers.etag).not.toBe(geojson.headers.etag);
  });

  it('the ETag moves on with every committed public change, through any path, and with nothing else', async () => {
    const db = server.database.db;
    const path = '/api/v1/open-data/services.csv';
    const { client: admin } = await loggedIn(server, 'ADMIN');
    let etag = (await get(path)).headers.etag as string;
    /** The tag after `change`: a new one when `moves`, else the same (and a 304). */
    const after = async (what: string, moves: boolean, change: () => Promise<unknown>) => {
      await change();
      const res = await get(path, { 'if-none-match': etag });
      expect(res.status, what).toBe(moves ? 200 : 304);
      if (moves) expect(res.headers.etag, what).not.toBe(etag);
      else expect(res.headers.etag, what).toBe(etag);
      etag = res.headers.etag as string;
    };
    const [row] = await db
      .insert(services)
      .values({ name: 'Кав’ярня «Ранок»', countryCode: 'PL', address: 'Kraków' })
      .returning({ id: services.id });
    const id = row!.id;
    const set = (values: Partial<typeof services.$inferInsert>) =>
      db.update(services).set(values).where(eq(services.id, id));

    await after('a pending service is added', false, async () => {});
    await after('a pending service is edited', false, () => set({ name: 'Кав’ярня «Вечір»' }));
    await after('approved through the admin route', true, async () => {
      expect((await admin.post(`/api/v1/admin/services/${id}/approve`)).status).toBe(200);
    });
    // The approval also stamps when the service became new (alert digests read it).
    const [approved] = await db
      .select({ at: services.approvedAt })
      .from(services)
      .where(eq(services.id, id));
    expect(Date.now() - approved!.at!.getTime()).toBeLessThan(60_000);
    await after('an exported field', true, () => set({ phone: '+48 111 222 333' }));
    await after('the city of its address', true, () =>
      set({
        addressDetails: {
          lat: 50.06,
          lng: 19.94,
          displayName: 'Kraków',
          city: 'Kraków',
          countryCode: 'PL',
          approximate: true,
          source: 'gazetteer',
        },
      }),
    );
    await after('hidden from the map', true, () => set({ showOnMap: false }));
    await after('a field the export leaves out', false, () => set({ marketingConsent: true }));
    await after('the same values written again', false, () => set({ phone: '+48 111 222 333' }));
    await after('a write rolled back', false, () =>
      db
        .transaction(async (tx) => {
          await tx.update(services).set({ name: 'Rolled back' }).where(eq(services.id, id));
          throw new Error('rollback');
        })
        .catch(() => {}),
    );
    await after('lapsed re-confirmation', true, () => set({ confirmation: 'lapsed' }));
    await after('edited while lapsed', false, () => set({ website: 'https://lapsed.example' }));
    await after('re-confirmed', true, () => set({ confirmation: 'current' }));
    await after('declined through the admin route', true, async () => {
      const res = await admin.post(`/api/v1/admin/services/${id}/decline`, { reason: 'Дубль' });
      expect(res.status).toBe(200);
    });
    await after('approved again', true, () => set({ status: 'approved' }));
    await after('deleted', true, () => db.delete(services).where(eq(services.id, id)));
    // Many changes of many transactions are folded into the number now and then; the tag still
    // moves on with each and never comes back to an earlier one.
    const seen = new Set([etag]);
    for (let i = 0; i < 5; i++) {
      await after(`change ${i}`, true, () =>
        db
          .update(services)
          .set({ descriptionUa: `Опис ${i}` })
          .where(eq(services.id, withPosition)),
      );
      expect(seen.has(etag)).toBe(false);
      seen.add(etag);
    }
    // A fold: the rows of many committed transactions become the number, the sum unchanged.
    await db.execute(
      sql`INSERT INTO catalogue_changes (tx) SELECT -g FROM generate_series(1, 1000) g`,
    );
    const before = Number(await openDataVersion(db));
    await db
      .update(services)
      .set({ descriptionUa: 'Опис після' })
      .where(eq(services.id, withPosition));
    expect(Number(await openDataVersion(db))).toBe(before + 1);
    const [left] = (
      (await db.execute(sql`SELECT count(*)::int AS n FROM catalogue_changes`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(left!.n).toBe(1);
  }, 120_000);

  it('streams: pages are read as the client takes them, and the body arrives in chunks', async () => {
    const db = server.database.db;
    // More than two pages.
    const extra = OPEN_DATA_PAGE_ROWS * 2 + 10;
    await db.execute(sql`INSERT INTO services (name, country_code, status, description_other)
      SELECT 'Bulk ' || g, 'DE', 'approved', '' FROM generate_series(1, ${extra}) g`);
    const [last] = (
      (await db.execute(sql`SELECT id::text AS id FROM services
        WHERE status = 'approved' ORDER BY id DESC LIMIT 1`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;

    // The stream holds the first page when the caller has read the first chunk; the last page is
    // read only later, so a change made meanwhile is in it.
    const stream = openDataStream(db, 'csv', PUBLIC_URL);
    const iterator = stream[Symbol.asyncIterator]();
    const head = await iterator.next();
    expect(String(head.value)).toBe(`${OPEN_DATA_FIELDS.join(',')}\r\n`);
    await db
      .update(services)
      .set({ name: 'Renamed while streaming' })
      .where(eq(services.id, last!.id));
    let rest = '';
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      rest += String(next.value);
    }
    expect(rest).toContain(`"${last!.id}","Renamed while streaming"`);

    // Over HTTP: the first bytes arrive well before the end.
    const res = await chunked(`${server.url}/api/v1/open-data/services.csv`);
    expect(res.chunks.length).toBeGreaterThan(2);
    expect(res.chunks[0]!.at).toBeLessThan(res.end);
    expect(parseCsv(res.body).length).toBe(visible.length + extra + 1);
  }, 120_000);
});
