import type { CategoryKey, MapResult } from '@poruch/core';
import type { Db } from '../../db/index.js';
import { services } from '../../db/schema.js';
import { Random } from '../../seed/random.js';

export type NewService = typeof services.$inferInsert;

/** A service row for map tests: approved, shown, in Warsaw unless overridden. */
export function serviceRow(overrides: Partial<NewService> = {}): NewService {
  return {
    name: 'Сервіс',
    countryCode: 'PL',
    category: 'food',
    lat: 52.23,
    lng: 21.01,
    status: 'approved',
    showOnMap: true,
    ...overrides,
  };
}

/** Inserts rows in batches (one statement has at most 65535 parameters); returns their ids. */
export async function insertServices(db: Db, rows: NewService[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 2000) {
    const inserted = await db
      .insert(services)
      .values(rows.slice(i, i + 2000))
      .returning({ id: services.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

/** `n` services scattered around a centre (Gaussian, sigma in degrees). */
export function around(
  random: Random,
  n: number,
  centre: { lat: number; lng: number },
  sigma: number,
  overrides: Partial<NewService> = {},
): NewService[] {
  return Array.from({ length: n }, (_, i) =>
    serviceRow({
      name: `Service ${i}`,
      lat: Math.max(-85, Math.min(85, centre.lat + random.gaussian() * sigma)),
      lng: ((centre.lng + random.gaussian() * sigma + 540) % 360) - 180,
      ...overrides,
    }),
  );
}

/** Services an answer accounts for: cluster counts plus points. */
export const total = (r: MapResult) =>
  r.points.length + r.clusters.reduce((sum, c) => sum + c.count, 0);

export const bboxAround = (lat: number, lng: number, d: number) =>
  `${lng - d},${lat - d},${lng + d},${lat + d}`;

export const CATEGORY: CategoryKey = 'food';

/** The bbox a `width`×`height` px map (256-px tiles) shows around a centre at a zoom. */
export function viewport(lat: number, lng: number, zoom: number, width = 1920, height = 1080) {
  const scale = 256 * 2 ** zoom;
  const x = lng / 360 + 0.5;
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  const toLng = (px: number) => (px - 0.5) * 360;
  const toLat = (py: number) =>
    (360 / Math.PI) * Math.atan(Math.exp((180 - py * 360) * (Math.PI / 180))) - 90;
  const dx = width / 2 / scale;
  const dy = height / 2 / scale;
  const minLat = Math.max(-85, toLat(Math.min(1, y + dy)));
  const maxLat = Math.min(85, toLat(Math.max(0, y - dy)));
  return `${toLng(x - dx)},${minLat},${toLng(x + dx)},${maxLat}`;
}
