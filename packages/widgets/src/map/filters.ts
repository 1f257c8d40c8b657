import type { CategoryFilter } from '@poruch/core';

/** The filters a map and a search share. */
export interface ServiceFilters {
  /** ISO country code, e.g. `PL`. Defaults to every country. */
  country?: string;
  /** A category key, `all` or `empty`. Defaults to `all`. */
  category?: CategoryFilter | string;
  /** `true`: online services only; `false`: only the others. Defaults to both. */
  online?: boolean;
  /** Search text: the map shows the services the search finds for it. Defaults to none. */
  q?: string;
}

/** A point on the map: `{ lat, lng }`. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Parses a `center` attribute: `"50.45,30.52"` or `{"lat":50.45,"lng":30.52}`. */
export function parseCenter(text: string | null): LatLng | undefined {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const v = JSON.parse(trimmed) as Partial<LatLng>;
      return typeof v.lat === 'number' && typeof v.lng === 'number'
        ? { lat: v.lat, lng: v.lng }
        : undefined;
    } catch {
      return undefined;
    }
  }
  const [lat, lng] = trimmed.split(',').map(Number);
  return Number.isFinite(lat) && Number.isFinite(lng) ? { lat: lat!, lng: lng! } : undefined;
}

/** The map API's query for filters: leaves out what is unset, `online` as `true`/`false`. */
export function filterQuery(f: ServiceFilters): Record<string, string | undefined> {
  return {
    country: f.country || undefined,
    category: f.category && f.category !== 'all' ? f.category : undefined,
    online: f.online === undefined ? undefined : String(f.online),
    q: f.q?.trim() || undefined,
  };
}

const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/**
 * A map box `west,south,east,north` as the services search takes it: longitudes within ±180
 * (a box across the antimeridian keeps west > east), the whole world when it spans 360° or more.
 */
export function searchBBox(bbox: string): string {
  const [west, south, east, north] = bbox.split(',').map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const [w, e] = east - west >= 360 ? [-180, 180] : [wrapLng(west), wrapLng(east)];
  return [w, Math.max(-90, south), e === -180 && w > -180 ? 180 : e, Math.min(90, north)].join(',');
}

/** The `poruch:search` event's detail, which a search sends and maps on the page follow. */
export interface SearchEventDetail {
  /** Pairs a search with maps of the same `channel` attribute. Defaults to `''`. */
  channel: string;
  filters: ServiceFilters;
}

/** The `poruch:focus` event's detail: a search asks maps to show one service. */
export interface FocusEventDetail {
  channel: string;
  id: string;
  lat: number;
  lng: number;
  /** Defaults to 14. */
  zoom?: number;
}
