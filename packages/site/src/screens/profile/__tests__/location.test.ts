import { describe, expect, it } from 'vitest';
import { homeMapHref, readMapView, SHOW_ON_MAP_ZOOM } from '../../../pages/home/mapView.js';
import { mapsAppHref, mapsAppKind } from '../mapsApp.js';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:131.0) Gecko/131.0 Firefox/131.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPADOS =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

describe('mapsAppKind', () => {
  it('phones and tablets get geo:, iPhone and iPad Apple Maps, computers the web map', () => {
    expect(mapsAppKind({ userAgent: ANDROID })).toBe('geo');
    expect(mapsAppKind({ userAgent: ANDROID_TABLET })).toBe('geo');
    expect(mapsAppKind({ userAgent: FIREFOX_ANDROID })).toBe('geo');
    expect(mapsAppKind({ userAgent: IPHONE })).toBe('apple');
    // iPadOS says "Macintosh"; its touch screen tells it from a Mac.
    expect(mapsAppKind({ userAgent: IPADOS, maxTouchPoints: 5 })).toBe('apple');
    expect(mapsAppKind({ userAgent: IPADOS, maxTouchPoints: 0 })).toBe('web');
    expect(mapsAppKind({ userAgent: WINDOWS })).toBe('web');
    // Client Hints: the browser's own word that it is mobile (a reduced user agent).
    expect(mapsAppKind({ userAgent: WINDOWS, userAgentData: { mobile: true } })).toBe('geo');
  });
});

describe('mapsAppHref', () => {
  const at = { lat: 52.2297, lng: 21.0122 };
  const label = 'Кава & (чай) «Ріг»';
  it('a geo: URI with the coordinates and the label encoded, parentheses too', () => {
    const href = mapsAppHref('geo', { at, label, address: 'x' });
    const prefix = 'geo:52.2297,21.0122?q=52.2297,21.0122(';
    expect(href.startsWith(prefix) && href.endsWith(')')).toBe(true);
    expect(href.slice(prefix.length, -1)).not.toMatch(/[()&\s«]/);
    expect(decodeURIComponent(href.slice(href.indexOf('(') + 1, -1))).toBe(label);
  });
  it('OpenStreetMap with a marker, and Apple Maps with the label', () => {
    expect(mapsAppHref('web', { at, label, address: 'x' })).toBe(
      'https://www.openstreetmap.org/?mlat=52.2297&mlon=21.0122#map=17/52.2297/21.0122',
    );
    const apple = new URL(mapsAppHref('apple', { at, label, address: 'x' }));
    expect(apple.origin).toBe('https://maps.apple.com');
    expect(apple.searchParams.get('ll')).toBe('52.2297,21.0122');
    expect(apple.searchParams.get('q')).toBe(label);
  });
  it('without coordinates, a search for the address', () => {
    const address = 'ul. Długa 5 <b>&</b>, Gdańsk';
    const place = { at: null, label, address };
    expect(mapsAppHref('geo', place)).toBe(`geo:0,0?q=${encodeURIComponent(address)}`);
    expect(new URL(mapsAppHref('web', place)).searchParams.get('query')).toBe(address);
    expect(new URL(mapsAppHref('apple', place)).searchParams.get('q')).toBe(address);
  });
});

describe("home map's view in the URL", () => {
  it('reads what homeMapHref writes', () => {
    const href = homeMapHref({ lat: 52.22970001, lng: -0.1234567 });
    expect(href).toBe(`/?center=52.2297,-0.123457&zoom=${SHOW_ON_MAP_ZOOM}`);
    expect(readMapView(new URL(href, 'http://x').searchParams)).toEqual({
      center: { lat: 52.2297, lng: -0.123457 },
      zoom: SHOW_ON_MAP_ZOOM,
    });
  });
  it('ignores a centre out of range or unreadable, and a bad zoom', () => {
    const view = (q: string) => readMapView(new URLSearchParams(q));
    expect(view('')).toBeNull();
    expect(view('center=91,0')).toBeNull();
    expect(view('center=0,181')).toBeNull();
    expect(view('center=abc')).toBeNull();
    expect(view('center=1,2,3')).toBeNull();
    expect(view('center=Infinity,0')).toBeNull();
    expect(view('center=10,20&zoom=99')?.zoom).toBe(SHOW_ON_MAP_ZOOM);
    expect(view('center=10,20&zoom=2.5')?.zoom).toBe(SHOW_ON_MAP_ZOOM);
    expect(view('center=10,20&zoom=5')).toEqual({ center: { lat: 10, lng: 20 }, zoom: 5 });
  });
});
