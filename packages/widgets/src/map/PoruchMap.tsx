import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { MapPoint, MapResult, ServicePage } from '@poruch/core';
import { ErrorState } from '../shared/ErrorState.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { mapMessages } from '../shared/messages/mapMessages.js';
import { useWidget } from '../shared/WidgetContext.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { useResource } from '../useResource.js';
import { MapController, type MapView } from './createMapController.js';
import {
  filterQuery,
  searchBBox,
  type FocusEventDetail,
  type LatLng,
  type SearchEventDetail,
  type ServiceFilters,
} from './filters.js';
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
  /** Search text: only the services the search finds for it. Defaults to none. */
  q?: string;
  /** All filters at once, as an object (`el.filters = { country: 'PL' }`); wins over the attributes. */
  filters?: ServiceFilters;
  /** Start centre, `"lat,lng"` as an attribute or `{ lat, lng }`. Defaults to central Europe. */
  center?: LatLng;
  /** Start zoom, 1–18. Defaults to 4. */
  zoom?: number;
  /** Tile URL template (`https://…/{z}/{x}/{y}.png`), or `none`. Defaults to `/env`'s `tileUrl`, else OpenStreetMap. */
  tileUrl?: string;
  /**
   * The attribution of a custom `tileUrl`, as plain text (shown as text, never as HTML); `''`
   * for none. Defaults to OpenStreetMap's. Not used with the default tiles or `none`.
   */
  tileAttribution?: string;
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

/** Services the list view shows at most; beyond, it asks to zoom in or narrow the search. */
export const LIST_MAX = 50;

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
  /** The box of the answer drawn, which the list view lists. */
  const [box, setBox] = useState<string | null>(null);
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
      attribution:
        tileUrl === 'none'
          ? undefined
          : props.tileUrl && props.tileAttribution !== undefined
            ? props.tileAttribution
            : t('map.attribution'),
      scrollWheelZoom: props.scrollZoom === true,
      labels: { cluster: (count) => handlers.current.t('widget.zoom_in_cluster', { count }) },
      onData: (d, bbox) => {
        setData(d);
        setBox(bbox);
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
  }, [api, tileUrl, props.tileAttribution, lang]);

  const filters: ServiceFilters = fromSearch ?? {
    country: props.filters?.country ?? props.country,
    category: props.filters?.category ?? props.category,
    online: props.filters?.online ?? props.online,
    q: props.filters?.q ?? props.q,
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
    props.q,
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

  // The toolbar and the view have fixed heights, so the widget is as tall as the loader reserves
  // (loader/elements.ts) whatever it shows: no jump of the page below it.
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
            box={box}
            filters={filters}
            profileUrl={profileUrl}
            emptyMap={data !== null && count === 0}
          />
        )}
        {error !== undefined && (
          <div className="overlay">
            <ErrorState error={error} onRetry={retry} />
          </div>
        )}
      </div>
    </section>
  );
}

interface MapListProps {
  /** The box the map shows (`west,south,east,north`); null before its first answer. */
  box: string | null;
  filters: ServiceFilters;
  profileUrl: (id: string) => string;
  /** The map's answer for the box holds nothing: no need to ask. */
  emptyMap: boolean;
}

/**
 * The list view: the services in the box the map shows, with the map's filters (the services
 * search with `bbox`), as a labelled list of links to their profiles: name, category, place.
 * At most LIST_MAX; beyond, it says how many there are and asks to zoom in or narrow the search.
 * It follows the map's box and filters; when a reload removes the item that has the focus, the
 * focus goes to the list's heading, never to the page's start.
 */
function MapList({ box, filters, profileUrl, emptyMap }: MapListProps) {
  const { api, t } = useWidget();
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const queryKey =
    box && !emptyMap
      ? JSON.stringify({
          ...filterQuery(filters),
          bbox: searchBBox(box),
          onMap: 'true',
          pageSize: LIST_MAX,
        })
      : null;
  const { data, error, status, reload } = useResource<ServicePage | null>(
    (signal) =>
      queryKey
        ? api.get<ServicePage>('services', {
            query: JSON.parse(queryKey) as Record<string, string>,
            signal,
          })
        : Promise.resolve(null),
    [api, queryKey],
  );
  const page = emptyMap ? null : data;

  // The item that has the focus (set on focus; cleared when the focus moves on to another
  // element, not when its element is removed). When a new page no longer holds it and the focus
  // fell to the page's start, the list's heading takes it.
  const focused = useRef<string | null>(null);
  useLayoutEffect(() => {
    const id = focused.current;
    const p = panel.current;
    if (!id || !p || page?.items.some((s) => s.id === id)) return;
    focused.current = null;
    const root = p.getRootNode() as Document | ShadowRoot;
    if (
      !root.activeElement &&
      (!document.activeElement || document.activeElement === document.body)
    ) {
      heading.current?.focus({ preventScroll: true });
    }
  }, [page]);

  const total = page ? `${page.total}${page.totalIsEstimate ? '+' : ''}` : '';
  return (
    <div className="list-panel" part="list" ref={panel}>
      <h3 id={`${id}h`} className="list-title" ref={heading} tabIndex={-1}>
        {page ? t('map.list_title', { count: total }) : t('map.list_label')}
      </h3>
      {error !== undefined && status === 'error' ? (
        <ErrorState error={error} onRetry={reload} />
      ) : emptyMap || (page && page.items.length === 0) ? (
        <p className="muted">{t('widget.nothing_in_view')}</p>
      ) : !page ? (
        <p className="muted">{t('widget.loading')}</p>
      ) : (
        <>
          <ul className="list" aria-labelledby={`${id}h`}>
            {page.items.map((s) => (
              <li key={s.id} part="list-item">
                <a
                  href={profileUrl(s.id)}
                  target="_top"
                  onFocus={() => (focused.current = s.id)}
                  onBlur={(e) => {
                    if (e.relatedTarget) focused.current = null;
                  }}
                >
                  {s.name}
                </a>
                <span className="muted">
                  {[
                    s.category ? t(`category.${s.category}`) : '',
                    s.isOnline ? t('widget.online') : s.address,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </li>
            ))}
          </ul>
          {page.items.length < page.total && (
            <p className="muted more">
              {t('map.list_more', { shown: page.items.length, count: total })}
            </p>
          )}
        </>
      )}
    </div>
  );
}
