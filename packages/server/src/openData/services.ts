import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { OPEN_DATA_FIELDS, OPEN_DATA_LICENSE, type OpenDataService } from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
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

/** An ISO 8601 instant in UTC with milliseconds, as `Date.toISOString` writes it. */
const iso = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The public fields of a service, named as OpenDataService's (without `url`, which is built from
 * the id). The position only when the owner shows the service on the map.
 */
const COLUMNS = sql`${services.id}::text AS id, ${services.name} AS name,
  ${services.category} AS category, ${services.countryCode} AS "countryCode",
  coalesce(${services.addressDetails}->>'city', '') AS city, ${services.address} AS address,
  CASE WHEN ${services.showOnMap} THEN ${services.lat} END AS lat,
  CASE WHEN ${services.showOnMap} THEN ${services.lng} END AS lng,
  ${services.isOnline} AS "isOnline", ${services.website} AS website, ${services.phone} AS phone,
  ${services.descriptionUa} AS "descriptionUa", ${services.descriptionOther} AS "descriptionOther",
  ${services.isPartner} AS "isPartner", ${services.haveVacancy} AS "haveVacancy",
  ${iso(sql`${services.createdAt}`)} AS "createdAt", ${iso(sql`${services.updatedAt}`)} AS "updatedAt"`;

type Row = Omit<OpenDataService, 'url'>;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * What the export holds now, cheaply comparable: how many services and a sum of a hash of each
 * one's exported fields (one scan of the visible services; kept per write by the route). Any
 * change to an exported field, a service appearing or disappearing, changes it.
 */
export async function openDataFingerprint(db: Db): Promise<string> {
  const [row] = rowsOf<{ n: number; h: string }>(
    await db.execute(sql`SELECT count(*)::int AS n,
        coalesce(sum(hashtextextended(r::text, 0)), 0)::text AS h
      FROM (SELECT ${COLUMNS} FROM ${services} WHERE ${publiclyVisible()}) r`),
  );
  return `${row?.n ?? 0}.${row?.h ?? 0}`;
}

/** The ETag of one format of the export at a fingerprint (weak: every encoding has the same). */
export const openDataEtag = (format: OpenDataFormat, fingerprint: string, publicUrl: string) =>
  `W/"${createHash('sha1')
    .update(`${FORMAT_VERSION}|${format}|${publicUrl}|${fingerprint}`)
    .digest('base64url')}"`;

/** The visible services, a page at a time, in id order (keyset paging on the primary key). */
async function* servicePages(db: Db): AsyncGenerator<Row[]> {
  let after: string | null = null;
  for (;;) {
    const rows: Row[] = rowsOf<Row>(
      await db.execute(sql`SELECT ${COLUMNS} FROM ${services}
        WHERE ${publiclyVisible()}${after === null ? sql`` : sql` AND ${services.id} > ${after}::uuid`}
        ORDER BY ${services.id} LIMIT ${OPEN_DATA_PAGE_ROWS}`),
    );
    if (rows.length) yield rows;
    if (rows.length < OPEN_DATA_PAGE_ROWS) return;
    after = rows.at(-1)!.id;
  }
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

const withUrl = (row: Row, publicUrl: string): OpenDataService => ({
  ...row,
  lat: row.lat === null ? null : Number(row.lat),
  lng: row.lng === null ? null : Number(row.lng),
  url: `${publicUrl}/services/${row.id}`,
});

async function* csvChunks(db: Db, publicUrl: string): AsyncGenerator<Buffer> {
  yield Buffer.from(`${OPEN_DATA_FIELDS.join(',')}\r\n`);
  for await (const rows of servicePages(db)) {
    let chunk = '';
    for (const row of rows) {
      const service = withUrl(row, publicUrl);
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
  for await (const rows of servicePages(db)) {
    const chunk = rows.map((row) => feature(withUrl(row, publicUrl))).join(',\n');
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
