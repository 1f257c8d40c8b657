/**
 * The home page's map: `<poruch-map>` of @poruch/widgets as a React component
 * (docs/architecture.md, Widgets), driven by the home page's URL state. This module is the only one
 * that imports the map, and the home page loads it lazily, so Leaflet is downloaded only when the
 * map view is shown.
 */
import { PoruchMap } from '@poruch/widgets';

export interface HomeMapProps {
  country: string;
  category: string;
  online: boolean;
  /** The search text of the services search: the map shows the services it finds. */
  q: string;
  lang: string;
}

export default function HomeMap({ country, category, online, q, lang }: HomeMapProps) {
  return (
    <PoruchMap
      lang={lang}
      {...(country ? { country } : {})}
      category={category || 'all'}
      // The site's checkbox means "online services only"; unchecked shows every service.
      {...(online ? { online: true } : {})}
      {...(q ? { q } : {})}
    />
  );
}
