import { describe, expect, it } from 'vitest';
import type { BBox, MapResult } from '@poruch/core';
import { Random } from '../../seed/random.js';
import { MAX_CLUSTER_ZOOM, MapIndex, toFeature, type MapService } from '../MapIndex.js';

/**
 * MapIndex.among: some services of an index (a text query's matches), clustered by the index's
 * own clusters instead of an index built for them.
 */
describe('MapIndex.among', () => {
  const random = new Random(11);
  const CENTRES = [
    { lat: 52.23, lng: 21.01 },
    { lat: 50.08, lng: 14.42 },
    { lat: 38.72, lng: -9.14 },
    { lat: -36.85, lng: 174.76 },
    { lat: 64.84, lng: -147.72 },
    { lat: 65.0, lng: 179.9 },
    { lat: 65.0, lng: -179.9 },
  ];
  const rows: MapService[] = [];
  for (let i = 0; i < 3000; i++) {
    const c = CENTRES[i % CENTRES.length]!;
    // Most close together, some far out; every 50th at one spot with another.
    const spread = i % 3 ? 0.05 : 3;
    const same = i % 50 === 1 ? rows[i - 1] : undefined;
    rows.push({
      id: `s${i}`,
      name: `Service ${i}`,
      category: i % 2 ? 'food' : null,
      lat: same?.lat ?? Math.max(-80, Math.min(80, c.lat + random.gaussian() * spread)),
      lng: same?.lng ?? ((((c.lng + random.gaussian() * spread + 180) % 360) + 360) % 360) - 180,
      countryCode: i % 4 ? 'PL' : 'CZ',
      isOnline: i % 5 === 0,
    });
  }
  const index = new MapIndex(rows.map(toFeature));

  const WORLD: BBox = { minLng: -180, minLat: -85, maxLng: 180, maxLat: 85 };
  const boxes: BBox[] = [
    WORLD,
    { minLng: 10, minLat: 45, maxLng: 25, maxLat: 55 },
    { minLng: 20.9, minLat: 52.15, maxLng: 21.1, maxLat: 52.3 },
    // Across the antimeridian.
    { minLng: 170, minLat: 50, maxLng: -140, maxLat: 70 },
    { minLng: 179.5, minLat: 64.5, maxLng: -179.5, maxLat: 65.5 },
  ];

  const sorted = (r: MapResult) => ({
    clusters: r.clusters
      .map((c) => ({ ...c, lat: c.lat.toFixed(4), lng: c.lng.toFixed(4) }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    points: r.points.map((p) => p.id).sort(),
  });

  it('with every service, answers as the index itself at every zoom', () => {
    const view = index.among(rows.map((r) => r.id));
    expect(view.size).toBe(rows.length);
    for (const box of boxes) {
      for (let zoom = 0; zoom <= MAX_CLUSTER_ZOOM + 1; zoom++) {
        const own = index.query(box, zoom);
        const among = view.query(box, zoom);
        expect(among.zoom, `${JSON.stringify(box)} z${zoom}`).toBe(own.zoom);
        expect(sorted(among), `${JSON.stringify(box)} z${zoom}`).toEqual(sorted(own));
      }
    }
  });

  it('a subset: exactly its services, each once, in clusters that part at their expansion zoom', () => {
    const picked = rows.filter((_, i) => i % 7 === 0 || i % 50 <= 1);
    const ids = picked.map((r) => r.id);
    // Unknown ids and repeats are ignored; the filter drops the others.
    const view = index.among([...ids, ...ids.slice(0, 20), 'nope'], (s) => s.countryCode === 'PL');
    const expected = picked.filter((r) => r.countryCode === 'PL');
    expect(view.size).toBe(expected.length);
    for (let zoom = 0; zoom <= MAX_CLUSTER_ZOOM + 1; zoom++) {
      const r = view.query(WORLD, zoom);
      const counted = r.clusters.reduce((n, c) => n + c.count, 0) + r.points.length;
      expect(counted, `z${zoom}`).toBe(expected.length);
      const wanted = new Set(expected.map((e) => e.id));
      for (const p of r.points) expect(wanted.has(p.id), p.id).toBe(true);
      expect(new Set(r.points.map((p) => p.id)).size).toBe(r.points.length);
      for (const c of r.clusters) {
        expect(c.count).toBeGreaterThan(1);
        expect(c.expansionZoom).toBeGreaterThan(r.zoom);
        // The same matches stay one cluster up to the zoom before its expansion zoom, and part
        // at it.
        const near = {
          minLng: c.lng - 1e-4,
          minLat: c.lat - 1e-4,
          maxLng: c.lng + 1e-4,
          maxLat: c.lat + 1e-4,
        };
        const same = (z: number) =>
          view
            .query(near, z)
            .clusters.some((o) => o.count === c.count && o.lat === c.lat && o.lng === c.lng);
        expect(same(c.expansionZoom - 1), `z${zoom} ${c.id}`).toBe(true);
        expect(same(c.expansionZoom), `z${zoom} ${c.id}`).toBe(false);
      }
    }
  });

  it('a cluster of the subset holds matches only, at their mean position', () => {
    const ids = rows.filter((_, i) => i % 3 === 0).map((r) => r.id);
    const view = index.among(ids);
    const r = view.query(WORLD, 2);
    expect(r.clusters.length).toBeGreaterThan(0);
    const total = r.clusters.reduce((n, c) => n + c.count, 0) + r.points.length;
    expect(total).toBe(ids.length);
    // No cluster claims more than the index's cluster at the same place holds.
    const own = index.query(WORLD, 2);
    for (const c of r.clusters)
      expect(own.clusters.find((o) => o.id === c.id)!.count).toBeGreaterThanOrEqual(c.count);
  });

  it('an empty subset answers nothing', () => {
    const r = index.among([]).query(WORLD, 5);
    expect(r).toEqual({ clusters: [], points: [], zoom: 5 });
  });
});
