import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { OPEN_DATA_FIELDS, OPEN_DATA_LICENSE, type OpenDataService } from '@poruch/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { catalogueChanges, catalogueVersion, services } from '../db/schema.js';
import { publiclyVisible } from '../search/visibility.js';

/**
 * The open-data export of the catalogue (docs/open-data.md): every publicly visible service with
 * its public fields, as CSV or GeoJSON, read in primary-key order a page at a time and written to
 * the answer as each page arrives, so neither the database nor this process holds the whole set.
 * The database writes each page as the file's own text (CSV lines, GeoJSON features), which this
 * process passes on without parsing it.
 */

/** Services read per query; also what one chunk of the answer holds. */
export const OPEN_DATA_PAGE_ROWS = 1000;

/** Moves on when the files' layout changes, so a cached copy of the old layout is not reused. */
const FORMAT_VERSION = 2;

/** How a field is written: text quoted in CSV, numbers and booleans bare. */
type FieldType = 'text' | 'number' | 'boolean';

/**
 * The public fields of a service, in OPEN_DATA_FIELDS's order: the position only when the owner
 * shows the service on the map, times in ISO 8601 (UTC, milliseconds). The database trigger that
 * moves the catalogue version (migration 0016) compares the columns these read.
 */
const iso = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const FIELDS = (publicUrl: string): Record<keyof OpenDataService, [SQL, FieldType]> => ({
  id: [sql`${services.id}::text`, 'text'],
  name: [sql`${services.name}`, 'text'],
  category: [sql`${services.category}`, 'text'],
  countryCode: [sql`${services.countryCode}`, 'text'],
  city: [sql`coalesce(${services.addressDetails}->>'city', '')`, 'text'],
  address: [sql`${services.address}`, 'text'],
  lat: [sql`CASE WHEN ${services.showOnMap} THEN ${services.lat} END`, 'number'],
  lng: [sql`CASE WHEN ${services.showOnMap} THEN ${services.lng} END`, 'number'],
  isOnline: [sql`${services.isOnline}`, 'boolean'],
  website: [sql`${services.website}`, 'text'],
  phone: [sql`${services.phone}`, 'text'],
  descriptionUa: [sql`${services.descriptionUa}`, 'text'],
  descriptionOther: [sql`${services.descriptionOther}`, 'text'],
  isPartner: [sql`${services.isPartner}`, 'boolean'],
  haveVacancy: [sql`${services.haveVacancy}`, 'boolean'],
  createdAt: [iso(sql`${services.createdAt}`), 'text'],
  updatedAt: [iso(sql`${services.updatedAt}`), 'text'],
  url: [sql`${publicUrl}::text || '/services/' || ${services.id}`, 'text'],
});

/**
 * One CSV cell (RFC 4180) of a value: numbers and booleans bare, empty for null, any text in
 * double quotes with its quotes doubled. Text starting with = + - @ tab or carriage return gets a
 * leading apostrophe first, so a spreadsheet shows it as text instead of running it as a formula
 * (OWASP's CSV injection advice).
 */
function csvCell([value, type]: [SQL, FieldType]): SQL {
  if (type !== 'text') return sql`coalesce((${value})::text, '')`;
  return sql`coalesce('"' || replace(CASE WHEN left(${value}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r')
    THEN '''' || ${value} ELSE ${value} END, '"', '""') || '"', '')`;
}

/** A value as JSON text (`null` for null). */
const json = (value: SQL) => sql`coalesce(to_json(${value})::text, 'null')`;

/**
 * A GeoJSON Feature (RFC 7946): the position as a Point, null when there is none to show. Put
 * together as text, without the spaces PostgreSQL's own JSON output puts between members.
 */
function feature(publicUrl: string): SQL {
  const fields = FIELDS(publicUrl);
  const [lat, lng] = [fields.lat[0], fields.lng[0]];
  const properties = OPEN_DATA_FIELDS.filter((f) => f !== 'lat' && f !== 'lng').map(
    (f, i) => sql`${`${i ? ',' : ''}"${f}":`}::text || ${json(fields[f][0])}`,
  );
  return sql`'{"type":"Feature","id":' || ${json(sql`${services.id}`)} || ',"geometry":'
    || CASE WHEN ${lat} IS NOT NULL AND ${lng} IS NOT NULL
      THEN '{"type":"Point","coordinates":[' || ${lng}::text || ',' || ${lat}::text || ']}'
      ELSE 'null' END
    || ',"properties":{' || ${sql.join(properties, sql` || `)} || '}}'`;
}

/** One service's text in a format: a CSV record with its line break, or a GeoJSON feature. */
function recordText(format: OpenDataFormat, publicUrl: string): SQL {
  if (format === 'geojson') return feature(publicUrl);
  const fields = FIELDS(publicUrl);
  const cells = OPEN_DATA_FIELDS.map((f) => csvCell(fields[f]));
  return sql`${sql.join(cells, sql` || ',' || `)} || E'\\r\\n'`;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * What the export holds now, cheaply comparable and the same on every instance: the catalogue
 * version (migration 0016), which moves on when a committed change alters what the export
 * shows (a visible service added, changed, hidden or removed) and only then. One row and a
 * count of a small table, in one statement.
 */
export async function openDataVersion(db: Db): Promise<string> {
  const [row] = rowsOf<{ v: string }>(
    await db.execute(sql`SELECT (${catalogueVersion.version}
        + (SELECT count(*) FROM ${catalogueChanges}))::text AS v FROM ${catalogueVersion}`),
  );
  return row?.v ?? '0';
}

/** The ETag of one format of the export at a version (weak: every encoding has the same). */
export const openDataEtag = (format: OpenDataFormat, version: string, publicUrl: string) =>
  `W/"${createHash('sha1')
    .update(`${FORMAT_VERSION}|${format}|${publicUrl}|${version}`)
    .digest('base64url')}"`;

/**
 * Services per text value the database sends: a few tens of kilobytes, below the size from which
 * V8 puts a string in its large-object space. A page as one value (a megabyte of GeoJSON) stayed
 * there until a full collection, so a download left up to a hundred of them behind before one
 * ran (84 MB at 100k); a value per service costs PGlite a row each (a fifth slower).
 */
const GROUP_ROWS = 40;

/**
 * One page of the export after the service `after` (null: from the start) as one Buffer, with
 * the number of services in it and the id of its last one. The database's values are dropped
 * when this returns, not held while the client takes the page (a generator's locals live across
 * its `yield`), so V8 collects them young instead of moving them to its old generation.
 */
async function readPage(
  db: Db,
  text: SQL,
  separator: string,
  after: string | null,
): Promise<{ bytes: Buffer; n: number; last: string | undefined }> {
  const groups: { t: string; n: number; last: string }[] = rowsOf(
    await db.execute(sql`SELECT string_agg(r.t, ${separator} ORDER BY r.id) AS t,
        count(*)::int AS n, max(r.id::text) AS last
      FROM (SELECT ${text} AS t, ${services.id} AS id,
          row_number() OVER (ORDER BY ${services.id}) AS i
        FROM ${services} WHERE ${publiclyVisible()}${
          after === null ? sql`` : sql` AND ${services.id} > ${after}::uuid`
        } ORDER BY ${services.id} LIMIT ${OPEN_DATA_PAGE_ROWS}) r
      GROUP BY (r.i - 1) / ${GROUP_ROWS} ORDER BY min(r.i)`),
  );
  return {
    // Every value follows a separator; the caller drops the file's first one.
    bytes: Buffer.concat(groups.map((g) => Buffer.from(separator + g.t))),
    n: groups.reduce((sum, g) => sum + g.n, 0),
    last: groups.at(-1)?.last,
  };
}

/**
 * The visible services as the format's text, a page at a time, in id order (keyset paging on
 * the primary key): each page a few values of GROUP_ROWS services' text from the database, put
 * together as one Buffer.
 */
async function* servicePages(
  db: Db,
  format: OpenDataFormat,
  publicUrl: string,
): AsyncGenerator<Buffer> {
  const text = recordText(format, publicUrl);
  // GeoJSON's features are separated by `,\n`; the file's first one only starts a line.
  const separator = format === 'geojson' ? ',\n' : '';
  let after: string | null = null;
  for (let first = true; ; first = false) {
    // What was written so far leaves first (PGlite's queries hold the event loop while they run).
    await new Promise((resolve) => setImmediate(resolve));
    const page = await readPage(db, text, separator, after);
    if (page.n) yield first && separator ? page.bytes.subarray(1) : page.bytes;
    if (page.n < OPEN_DATA_PAGE_ROWS) return;
    after = page.last!;
  }
}

export type OpenDataFormat = 'csv' | 'geojson';

async function* csvChunks(db: Db, publicUrl: string): AsyncGenerator<Buffer> {
  yield Buffer.from(`${OPEN_DATA_FIELDS.join(',')}\r\n`);
  yield* servicePages(db, 'csv', publicUrl);
}

async function* geojsonChunks(db: Db, publicUrl: string): AsyncGenerator<Buffer> {
  const head = {
    type: 'FeatureCollection',
    license: OPEN_DATA_LICENSE,
    attribution: `Poruch, ${publicUrl}`,
  };
  // The members before `features`, then the features as they are read.
  yield Buffer.from(`${JSON.stringify(head).slice(0, -1)},"features":[`);
  yield* servicePages(db, 'geojson', publicUrl);
  yield Buffer.from('\n]}\n');
}

/** The export as a byte stream that reads the next page only when the client has taken the last. */
export function openDataStream(db: Db, format: OpenDataFormat, publicUrl: string): Readable {
  return Readable.from(format === 'csv' ? csvChunks(db, publicUrl) : geojsonChunks(db, publicUrl), {
    objectMode: false,
  });
}
