import { useState } from 'react';
import { PoruchMap, PoruchSearch, type MapSelectDetail } from '@poruch/widgets';

/** The Poruch server the widgets talk to: `?api=` in the tests, the public site otherwise. */
const API_BASE = new URLSearchParams(location.search).get('api') ?? 'https://poruch.org';

/**
 * A community app's "find a Ukrainian business" page: the search and the map as React
 * components. They share a `channel`, so a search moves the map; a point chosen on the map is
 * reported back through `onSelect` and shown by the app itself.
 */
export function App() {
  const [chosen, setChosen] = useState<MapSelectDetail | null>(null);
  return (
    <main style={{ maxWidth: 1100, margin: '0 auto', padding: 16, fontFamily: 'system-ui' }}>
      <h1>Ukrainian businesses near you</h1>
      <PoruchSearch apiBase={API_BASE} lang="en_GB" channel="find" />
      <PoruchMap
        apiBase={API_BASE}
        lang="en_GB"
        channel="find"
        tileUrl="none"
        onSelect={(detail: MapSelectDetail) => setChosen(detail)}
      />
      <p data-testid="chosen" aria-live="polite">
        {chosen ? `Chosen on the map: ${chosen.name}` : 'Choose a point on the map.'}
      </p>
    </main>
  );
}
