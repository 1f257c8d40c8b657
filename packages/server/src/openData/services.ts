import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { OPEN_DATA_FIELDS, OPEN_DATA_LICENSE, type OpenDataService } from '@poruch/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { services } from '../db/schema.js';
import { publiclyVisible } from '../search/visibility.js';

/**
 * The open-data export of the catalogue (docs/open-data.md): every publicly visible service with
 * its public fields, as CSV or GeoJSON, read in primary-key order a page at a time and written to
 * the answer as each page arrives, so neither the database nor this process holds the whole set.
 */

/** Services read per query; also what one chunk of the answer holds. */
export const OPEN_DATA_PAGE_ROWS = 1000;

/** Moves on when the files' layout changes, so a cached copy of the old layout is not reused. */
const FORMAT_VERSION = 1;

/**
 * The public fields of a service, in OpenDataService's order (without `url`, which is built from
 * the id): the position only when the owner shows the service on the map, times as milliseconds
 * since the epoch.
 */
const FIELDS = sql`${services.id}, ${services.name}, ${services.category}, ${services.countryCode},
  coalesce(${services.addressDetails}->>'city', ''), ${services.address},
  CASE WHEN ${services.showOnMap} THEN ${services.lat} END,
  CASE WHEN ${services.showOnMap} THEN ${services.lng} END,
  ${services.isOnline}, ${services.website}, ${services.phone}, ${services.descriptionUa},
  ${services.descriptionOther}, ${services.isPartner}, ${services.haveVacancy},
  floor(extract(epoch FROM ${services.createdAt}) * 1000),
  floor(extract(epoch FROM ${services.updatedAt}) * 1000)`;

/** One row of FIELDS as JSON gives it. */
type Tuple = [
  string,
  string,
  OpenDataService['category'],
  string,
  string,
  string,
  number | null,
  number | null,
  boolean,
  string,
  string,
  string,
  string,
  boolean,
  boolean,
  number,
  number,
];

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * What the export holds now, cheaply comparable and the same on every instance: how many visible
 * services, and a sum of a hash of each one's id and row version (`xmin`, the transaction that
 * wrote the row as it is now). A service appearing, disappearing or written in any way changes
 * it; a write still uncommitted does not (it counts what this read sees). One scan of the visible
 * services without reading their text, kept per write by the route.
 */
export async function openDataFingerprint(db: Db): Promise<string> {
  const [row] = rowsOf<{ n: number; h: string }>(
    await db.execute(sql`SELECT count(*)::int AS n,
        coalesce(sum(hashtextextended(${services.id}::text, xmin::text::bigint)), 0)::text AS h
      FROM ${services} WHERE ${publiclyVisible()}`),
  );
  return `${row?.n ?? 0}.${row?.h ?? 0}`;
}

/** The ETag of one format of the export at a fingerprint (weak: every encoding has the same). */
export const openDataEtag = (format: OpenDataFormat, fingerprint: string, publicUrl: string) =>
  `W/"${createHash('sha1')
    .update(`${FORMAT_VERSION}|${format}|${publicUrl}|${fingerprint}`)
    .digest('base64url')}"`;

/**
 * The visible services, a page at a time, in id order (keyset paging on the primary key). Each
 * page comes back as one JSON text, which both drivers hand over much faster than its rows.
 */
async function* servicePages(db: Db, publicUrl: string): AsyncGenerator<OpenDataService[]> {
  let after: string | null = null;
  for (;;) {
    // What was written so far leaves first (PGlite's queries hold the event loop while they run).
    await new Promise((resolve) => setImmediate(resolve));
    const [row] = rowsOf<{ page: string | null }>(
      await db.execute(sql`SELECT json_agg(json_build_array(${FIELDS}) ORDER BY ${services.id})::text
          AS page
        FROM (SELECT * FROM ${services} WHERE ${publiclyVisible()}${
          after === null ? sql`` : sql` AND ${services.id} > ${after}::uuid`
        } ORDER BY ${services.id} LIMIT ${OPEN_DATA_PAGE_ROWS}) ${services}`),
    );
    const tuples = JSON.parse(row?.page ?? '[]') as Tuple[];
    if (tuples.length) yield tuples.map((t) => serviceOf(t, publicUrl));
    if (tuples.length < OPEN_DATA_PAGE_ROWS) return;
    after = tuples.at(-1)![0];
  }
}

function serviceOf(t: Tuple, publicUrl: string): OpenDataService {
  const [id, name, category, countryCode, city, address, lat, lng] = t;
  return {
    id,
    name,
    category,
    countryCode,
    city,
    address,
    lat,
    lng,
    isOnline: t[8],
    website: t[9],
    phone: t[10],
    descriptionUa: t[11],
    descriptionOther: t[12],
    isPartner: t[13],
    haveVacancy: t[14],
    createdAt: new Date(t[15]).toISOString(),
    updatedAt: new Date(t[16]).toISOString(),
    url: `${publicUrl}/services/${id}`,
  };
}

export type OpenDataFormat = 'csv' | 'geojson';

/** A cell's characters that make a spreadsheet read it as a formula (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): numbers and booleans bare, empty for null, any text in double quotes
 * with its quotes doubled. Text starting with = + - @ tab or carriage return gets a leading
 * apostrophe first, so a spreadsheet shows it as text instead of running it as a formula
 * (OWASP's CSV injection advice).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = String(value);
  return `"${(FORMULA_START.test(text) ? `'${text}` : text).replaceAll('"', '""')}"`;
}

async function* csvChunks(db: Db, publicUrl: string): AsyncGenerator<Buffer> {
  yield Buffer.from(`${OPEN_DATA_FIELDS.join(',')}\r\n`);
  for await (const page of servicePages(db, publicUrl)) {
    let chunk = '';
    for (const service of page) {
      chunk += `${OPEN_DATA_FIELDS.map((f) => csvCell(service[f])).join(',')}\r\n`;
    }
    yield Buffer.from(chunk);
  }
}

/** A GeoJSON Feature (RFC 7946): the position as a Point, null when there is none to show. */
function feature(service: OpenDataService): string {
  const { lat, lng, ...properties } = service;
  const geometry = lat === null || lng === null ? null : { type: 'Point', coordinates: [lng, lat] };
  return JSON.stringify({ type: 'Feature', id: service.id, geometry, properties });
}

async function* geojsonChunks(db: Db, publicUrl: string): AsyncGenerator<Buffer> {
  const head = {
    type: 'FeatureCollection',
    license: OPEN_DATA_LICENSE,
    attribution: `Poruch, ${publicUrl}`,
  };
  // The members before `features`, then the features as they are read.
  yield Buffer.from(`${JSON.stringify(head).slice(0, -1)},"features":[`);
  let first = true;
  for await (const page of servicePages(db, publicUrl)) {
    const chunk = page.map(feature).join(',\n');
    yield Buffer.from(`${first ? '\n' : ',\n'}${chunk}`);
    first = false;
  }
  yield Buffer.from('\n]}\n');
}

/** The export as a byte stream that reads the next page only when the client has taken the last. */
export function openDataStream(db: Db, format: OpenDataFormat, publicUrl: string): Readable {
  return Readable.from(format === 'csv' ? csvChunks(db, publicUrl) : geojsonChunks(db, publicUrl), {
    objectMode: false,
  });
}
