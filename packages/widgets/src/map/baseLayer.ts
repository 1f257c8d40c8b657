import { feature } from 'topojson-client';
import { WORLD } from './worldTopology.js';

/**
 * The offline base layer: country shapes drawn under the tiles, so a map shows where it is when
 * tiles cannot load. The interactive map (MapController) and the profile's static map draw it.
 */
export const BASE_LAYER_STYLE = {
  className: 'base-country',
  color: '#8aa1b5',
  weight: 0.8,
  fillColor: '#f4f1ea',
  fillOpacity: 1,
} as const;
/** The sea under the base layer's countries. */
export const BASE_LAYER_SEA = '#cfe3f3';

/** A country of the base layer: GeoJSON polygons of [longitude, latitude] positions. */
export interface BaseCountry {
  type: 'Feature';
  geometry:
    | { type: 'Polygon'; coordinates: number[][][] }
    | { type: 'MultiPolygon'; coordinates: number[][][][] };
}
/** The base layer's shapes as a GeoJSON FeatureCollection. */
export interface BaseCountries {
  type: 'FeatureCollection';
  features: BaseCountry[];
}

let countries: BaseCountries | undefined;

/** The base layer's country shapes as GeoJSON, built once. */
export function baseCountries(): BaseCountries {
  countries ??= feature(WORLD, WORLD.objects.countries!) as unknown as BaseCountries;
  return countries;
}

/**
 * The same shapes country by country, each decoded when it is reached: a caller that draws in
 * slices (the profile's static map) yields between them instead of decoding the world in one
 * long task.
 */
export function* baseCountryFeatures(): Generator<BaseCountry> {
  if (countries) {
    yield* countries.features;
    return;
  }
  const collection = WORLD.objects.countries as unknown as {
    geometries: Parameters<typeof feature>[1][];
  };
  for (const geometry of collection.geometries) {
    yield feature(WORLD, geometry) as unknown as BaseCountry;
  }
}
