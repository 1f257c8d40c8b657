import { useEffect, useRef, useState } from 'react';
import type { MapPoint, MapResult } from '@poruch/core';
import { ErrorState } from '../shared/ErrorState.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { mapMessages } from '../shared/messages/mapMessages.js';
import { useWidget } from '../shared/WidgetContext.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { MapController, type MapView } from './createMapController.js';
import type { FocusEventDetail, LatLng, SearchEventDetail, ServiceFilters } from './filters.js';
import { MAP_PARTS, mapStyles } from './mapStyles.js';

/** The detail of `poruch:select`: the point clicked. */
export type MapSelectDetail = MapPoint;

/** The detail of `poruch:move`: the centre and zoom after a pan or zoom. */
export type MapMoveDetail = MapView;

export interface MapProps extends WidgetBaseProps {
  /** ISO country code to show only one country's services. Defaults to every country. */
  country?: string;
  /** Category key (`food`, …), `all` or `empty`. Defaults to `all`. */
  category?: string;
  /** `true` for online services only, `false` for the others. Defaults to both. */
  online?: boolean;
  /** All filters at once, as an object (`el.filters = { country: 'PL' }`); wins over the attributes. */
  filters?: ServiceFilters;
  /** Start centre, `"lat,lng"` as an attribute or `{ lat, lng }`. Defaults to central Europe. */
  center?: LatLng;
  /** Start zoom, 1–18. Defaults to 4. */
  zoom?: number;
  /** Tile URL template (`https://…/{z}/{x}/{y}.png`), or `none`. Defaults to `/env`'s `tileUrl`, else OpenStreetMap. */
  tileUrl?: string;
  /** Zoom with the scroll wheel. Defaults to false: an embedded map must not trap the page's scroll. */
  scrollZoom?: boolean;
  /** Pairs the map with `<poruch-search>` elements of the same channel. Defaults to `''`. */
  channel?: string;
  /** Start in the list view. Defaults to false. */
  listView?: boolean;
  /** Called when a point is chosen; `poruch:select` carries the same detail. */
  onSelect?: (detail: MapSelectDetail) => void;
  /** Called after every pan or zoom; `poruch:move` carries the same detail. */
  onMove?: (detail: MapMoveDetail) => void;
}

const MESSAGES = [mapMessages, categoryMessages];

const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** `<poruch-map>` as a React component: the server's clusters and points on Leaflet. */
export function PoruchMap(props: MapProps) {
  return (
    <WidgetShell
      {...props}
      styles={mapStyles}
      parts={MAP_PARTS}
      messages={MESSAGES}
      handlers={props}
    >
      <MapView {...props} />
    </WidgetShell>
  );
}

function useTileUrl(attr: string | undefined): string | undefined {
  const { api } = useWidget();
  const [fromEnv, setFromEnv] = useState<string | null | undefined>(attr ? null : undefined);
  useEffect(() => {
    if (attr) return;
    const controller = new AbortController();
    api.get<{ tileUrl?: unknown }>('env', { root: true, signal: controller.signal }).then(
      (env) =>
        setFromEnv(typeof env?.tileUrl === 'string' && env.tileUrl ? env.tileUrl : OSM_TILES),
      () => setFromEnv(controller.signal.aborted ? undefined : OSM_TILES),
    );
    return () => controller.abort();
  }, [api, attr]);
  return attr || fromEnv || undefined;
}

function MapView(props: MapProps) {
  const { api, t, emit, setState, siteBase, lang } = useWidget();
  const container = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const [controller, setController] = useState<MapController | null>(null);
  const [data, setData] = useState<MapResult | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [offline, setOffline] = useState(false);
  const [selected, setSelected] = useState<MapPoint | null>(null);
  const [list, setList] = useState(props.listView === true);
  const [fromSearch, setFromSearch] = useState<ServiceFilters | null>(null);
  const tileUrl = useTileUrl(props.tileUrl);
  const channel = props.channel ?? '';

  // Latest callbacks for the controller, which lives longer than one render.
  const handlers = useRef({ setState, emit, t });
  useEffect(() => {
    handlers.current = { setState, emit, t };
  });

  useEffect(() => {
    const el = container.current;
    if (!el || tileUrl === undefined) return;
    const c = new MapController(el, {
      api,
      ...(props.center ? { center: props.center } : {}),
      ...(props.zoom ? { zoom: props.zoom } : {}),
      tileUrl,
      attribution: t('map.attribution'),
      scrollWheelZoom: props.scrollZoom === true,
      labels: { cluster: (count) => handlers.current.t('widget.zoom_in_cluster', { count }) },
      onData: (d) => {
        setData(d);
        setError(undefined);
        handlers.current.setState('ready');
      },
      onError: (e) => {
        setError(e);
        handlers.current.setState('error', e);
      },
      onTilesFailed: () => setOffline(true),
      onPointClick: (p) => setSelected(p),
      onView: (view) => handlers.current.emit('move', view),
    });
    setController(c);
    return () => {
      c.destroy();
      setController(null);
    };
    // The map is built once per API, language and tile source; view props apply below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, tileUrl, lang]);

  const filters: ServiceFilters = fromSearch ?? {
    country: props.filters?.country ?? props.country,
    category: props.filters?.category ?? props.category,
    online: props.filters?.online ?? props.online,
  };
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    if (!controller) return;
    handlers.current.setState('loading');
    controller.setFilters(JSON.parse(filterKey) as ServiceFilters);
  }, [controller, filterKey]);

  // New attributes or properties win over what a search set earlier.
  const attrFilterKey = JSON.stringify([
    props.country,
    props.category,
    props.online,
    props.filters,
  ]);
  const [seenAttrKey, setSeenAttrKey] = useState(attrFilterKey);
  if (seenAttrKey !== attrFilterKey) {
    setSeenAttrKey(attrFilterKey);
    setFromSearch(null);
  }

  // A <poruch-search> of the same channel drives the map.
  useEffect(() => {
    if (!controller) return;
    const onSearch = (e: Event) => {
      const d = (e as CustomEvent<SearchEventDetail>).detail;
      if (d && (d.channel ?? '') === channel) setFromSearch({ ...d.filters });
    };
    const onFocus = (e: Event) => {
      const d = (e as CustomEvent<FocusEventDetail>).detail;
      if (!d || (d.channel ?? '') !== channel) return;
      setList(false);
      controller.setView({ lat: d.lat, lng: d.lng }, d.zoom ?? 14);
    };
    document.addEventListener('poruch:search', onSearch);
    document.addEventListener('poruch:focus', onFocus);
    return () => {
      document.removeEventListener('poruch:search', onSearch);
      document.removeEventListener('poruch:focus', onFocus);
    };
  }, [controller, channel]);

  useEffect(() => {
    if (selected) emit('select', selected);
  }, [selected, emit]);

  // Under the list the map stays laid out at its real size, so the list shows the box the map
  // would show; `inert` keeps it out of the keyboard's and screen reader's way (set here: React
  // 18 has no `inert` prop).
  useEffect(() => {
    wrap.current?.toggleAttribute('inert', list);
  }, [list]);

  const retry = () => {
    setError(undefined);
    controller?.load();
  };
  const profileUrl = (id: string) => `${siteBase}services/${encodeURIComponent(id)}`;
  const count = data ? data.points.length + data.clusters.reduce((n, c) => n + c.count, 0) : 0;

  return (
    <section className="map-widget" aria-label={t('map.label')}>
      <div className="toolbar" part="toolbar">
        <span className="status" role="status" aria-live="polite">
          {/* Failed before any data: the error state below says why, not "Loading…". */}
          {data
            ? t('widget.points_in_view', { count })
            : error === undefined
              ? t('widget.loading')
              : ''}
        </span>
        <button
          type="button"
          className="toggle"
          part="toggle button"
          aria-pressed={list}
          onClick={() => setList((v) => !v)}
        >
          {list ? t('widget.show_map') : t('widget.show_list')}
        </button>
      </div>
      {error !== undefined && <ErrorState error={error} onRetry={retry} />}
      <div className={list ? 'view listing' : 'view'}>
        <div className="map-wrap" ref={wrap}>
          <div
            ref={container}
            className="map"
            part="map"
            role="region"
            aria-label={t('map.label')}
          />
          {offline && (
            <p className="notice" part="notice">
              {t('map.offline')}
            </p>
          )}
          {selected && (
            <div className="card" part="card" role="dialog" aria-labelledby="poruch-card-title">
              <h3 id="poruch-card-title" part="card-title">
                {selected.name}
              </h3>
              {selected.category && (
                <span className="muted">{t(`category.${selected.category}`)}</span>
              )}
              <a part="card-link" href={profileUrl(selected.id)} target="_top">
                {t('widget.open_profile')}
              </a>
              <button
                type="button"
                className="close"
                aria-label={t('widget.close_card')}
                onClick={() => setSelected(null)}
              >
                ×
              </button>
            </div>
          )}
        </div>
        {list && (
          <MapList
            data={data}
            profileUrl={profileUrl}
            onCluster={(c) => {
              setList(false);
              requestAnimationFrame(() => controller?.zoomInto(c));
            }}
            onPoint={(p) => {
              setSelected(p);
            }}
          />
        )}
      </div>
    </section>
  );
}

interface MapListProps {
  data: MapResult | null;
  profileUrl: (id: string) => string;
  onCluster: (c: MapResult['clusters'][number]) => void;
  onPoint: (p: MapPoint) => void;
}

/** The list view: what the map shows, as buttons and links a keyboard and a screen reader use. */
function MapList({ data, profileUrl, onCluster, onPoint }: MapListProps) {
  const { t } = useWidget();
  if (!data) return null;
  if (!data.points.length && !data.clusters.length) {
    return <p className="muted">{t('widget.nothing_in_view')}</p>;
  }
  return (
    <ul className="list" part="list">
      {data.points.map((p) => (
        <li key={`p${p.id}`} part="list-item">
          <a href={profileUrl(p.id)} target="_top" onClick={() => onPoint(p)}>
            {p.name}
          </a>
          {p.category && <span className="muted"> · {t(`category.${p.category}`)}</span>}
        </li>
      ))}
      {data.clusters.map((c) => (
        <li key={`c${c.id}`} part="list-item">
          <button type="button" onClick={() => onCluster(c)}>
            {t('widget.zoom_in_cluster', { count: c.count })}
          </button>
        </li>
      ))}
    </ul>
  );
}
