/**
 * The home page's map: `<poruch-map>` of @poruch/widgets as a React component
 * (docs/architecture.md, Widgets), driven by the home page's URL state. This module is the only one
 * that imports the map, and the home page loads it lazily, so Leaflet is downloaded only when the
 * map view is shown. The map starts at the URL's `center` and `zoom` when it has them (mapView.ts).
 */
import { useMemo } from 'react';
import { PoruchMap } from '@poruch/widgets';
import { useQuery } from '../../router/index.js';
import { readMapView } from './mapView.js';

export interface HomeMapProps {
  country: string;
  category: string;
  online: boolean;
  /** The search text of the services search: the map shows the services it finds. */
  q: string;
  lang: string;
}

export default function HomeMap({ country, category, online, q, lang }: HomeMapProps) {
  const [params] = useQuery();
  const view = useMemo(() => readMapView(params), [params]);
  return (
    <PoruchMap
      // The widget reads its start view once: another view in the URL (Back to another
      // "Show on the map") starts the map again there.
      key={view ? `${view.center.lat},${view.center.lng},${view.zoom}` : ''}
      lang={lang}
      {...(view ? { center: view.center, zoom: view.zoom } : {})}
      {...(country ? { country } : {})}
      category={category || 'all'}
      // The site's checkbox means "online services only"; unchecked shows every service.
      {...(online ? { online: true } : {})}
      {...(q ? { q } : {})}
    />
  );
}
