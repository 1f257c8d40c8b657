/**
 * The home map's start view in the home page's URL: `center=<lat>,<lng>` and `zoom` (1–18), as
 * a profile's "Show on the map" writes it (`/?center=50.45,30.52&zoom=17`). A value out of range
 * or unreadable is ignored: the map starts where it always does.
 */
import type { LatLng } from '@poruch/widgets';

export interface HomeMapView {
  center: LatLng;
  zoom: number;
}

/**
 * The zoom "Show on the map" opens at: above the server's last clustering zoom (16, map.md), so
 * the service is a marker of its own even beside neighbours at the same address.
 */
export const SHOW_ON_MAP_ZOOM = 17;

const MIN_ZOOM = 1;
const MAX_ZOOM = 18;

/** The view in the URL's query, or null when it has none (or none that can be used). */
export function readMapView(params: URLSearchParams): HomeMapView | null {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(
    params.get('center') ?? '',
  );
  if (!match) return null;
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const zoom = Number(params.get('zoom'));
  return {
    center: { lat, lng },
    zoom: Number.isInteger(zoom) && zoom >= MIN_ZOOM && zoom <= MAX_ZOOM ? zoom : SHOW_ON_MAP_ZOOM,
  };
}

/** Six decimals: about 10 cm, and no float noise in the URL. */
export const coordinate = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** Home with its map centred on a place. */
export function homeMapHref(center: LatLng, zoom = SHOW_ON_MAP_ZOOM): string {
  return `/?center=${coordinate(center.lat)},${coordinate(center.lng)}&zoom=${zoom}`;
}
