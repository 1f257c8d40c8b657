/**
 * Where the service is, under its profile's services tab: the address as its owner wrote it
 * (text, escaped by React), a small static map with the service's marker (StaticMap, loaded when
 * it comes near the screen into a box of reserved size), "Show on the map" (home's map centred
 * there) and a link that opens the place in the visitor's own maps app (mapsApp.ts). A service
 * without an address (online only) has no section; one hidden from the map by its owner shows
 * its address but no map.
 */
import { lazy, Suspense, useId, useMemo } from 'react';
import { countryNameKey, type ServiceProfile } from '@poruch/core';
import { useApp, useConfig } from '../../app/context.js';
import { homeMapHref } from '../../pages/home/mapView.js';
import { Link } from '../../router/index.js';
import { useNearViewport } from '../../ui/useNearViewport.js';
import { mapsAppHref, mapsAppKind } from './mapsApp.js';

const StaticMap = lazy(() => import('./StaticMap.js'));

export function ProfileLocation({ profile }: { profile: ServiceProfile }) {
  const { t } = useApp();
  const config = useConfig();
  const headingId = useId();
  const [mapRef, mapNear] = useNearViewport('200px');
  const kind = useMemo(() => mapsAppKind(navigator), []);
  const address = profile.address.trim() || profile.addressDetails?.displayName.trim() || '';
  const at =
    profile.lat !== null && profile.lng !== null ? { lat: profile.lat, lng: profile.lng } : null;
  const onMap = profile.showOnMap ? at : null;
  if (!address && !onMap) return null;
  const place = address || t(countryNameKey(profile.countryCode));
  const label = t('profile_location.map_label', { name: profile.name, address: place });
  return (
    <section className="profile-location" aria-labelledby={headingId} data-testid="location">
      <h2 id={headingId}>{t('profile_location.title')}</h2>
      {address && (
        <p className="profile-location__address">
          {address}
          {onMap && profile.addressDetails?.approximate && (
            <span className="muted"> ({t('map.approximate')})</span>
          )}
        </p>
      )}
      {onMap && (
        <div className="profile-location__map" ref={mapRef}>
          {mapNear && (
            <Suspense fallback={null}>
              <StaticMap
                at={onMap}
                label={label}
                tileUrl={config?.tileUrl ?? undefined}
                attribution={t('map.attribution')}
              />
            </Suspense>
          )}
        </div>
      )}
      <p className="profile-location__links">
        {onMap && (
          <Link to={homeMapHref(onMap)} className="button button--secondary">
            {t('profile_location.show_on_map')}
          </Link>
        )}
        <a
          href={mapsAppHref(kind, { at: onMap, label: profile.name, address: place })}
          className="button button--secondary"
          data-kind={kind}
          {...(kind === 'geo' ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
        >
          {t(kind === 'web' ? 'profile_location.open_osm' : 'profile_location.open_app')}
        </a>
      </p>
    </section>
  );
}
