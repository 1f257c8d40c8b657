/**
 * "Open in your maps app": which link opens a place in the visitor's own maps app. A phone or
 * tablet opens a `geo:` URI (RFC 5870) in the app it chose for maps; iPhone and iPad have no
 * handler for `geo:`, and open Apple Maps' https link in Maps instead; a computer opens
 * OpenStreetMap's web map.
 */
import type { LatLng } from '@poruch/widgets';
import { coordinate } from '../../pages/home/mapView.js';

export type MapsAppKind = 'geo' | 'apple' | 'web';

/** What the rule reads of `navigator`. */
export interface DeviceInfo {
  userAgent: string;
  maxTouchPoints?: number;
  /** User-Agent Client Hints (Chromium): `mobile` is the browser's own answer. */
  userAgentData?: { mobile?: boolean };
}

/**
 * The kind of link for a device: iPhone, iPod and iPad (also iPadOS, which says "Macintosh" but
 * has a touch screen) `apple`; a browser that says it is mobile (Client Hints), or Android or
 * "Mobi" in the user agent (every mobile browser's token) `geo`; anything else `web`.
 */
export function mapsAppKind(device: DeviceInfo): MapsAppKind {
  const ua = device.userAgent;
  if (/iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && (device.maxTouchPoints ?? 0) > 1)) {
    return 'apple';
  }
  if (device.userAgentData?.mobile || /Android|Mobi/i.test(ua)) return 'geo';
  return 'web';
}

/** Percent-encoding that also encodes the parentheses, which end a `geo:` label. */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[()!'*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

/**
 * The link that opens a place: at its coordinates with the service's name as label, or, without
 * coordinates, a search for its address.
 */
export function mapsAppHref(
  kind: MapsAppKind,
  place: { at: LatLng | null; label: string; address: string },
): string {
  const { at, label, address } = place;
  if (!at) {
    const q = encode(address);
    if (kind === 'geo') return `geo:0,0?q=${q}`;
    if (kind === 'apple') return `https://maps.apple.com/?q=${q}`;
    return `https://www.openstreetmap.org/search?query=${q}`;
  }
  const lat = coordinate(at.lat);
  const lng = coordinate(at.lng);
  if (kind === 'geo') return `geo:${lat},${lng}?q=${lat},${lng}(${encode(label)})`;
  if (kind === 'apple') return `https://maps.apple.com/?ll=${lat},${lng}&q=${encode(label)}`;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
}
