import { useEffect, useRef, useState } from 'react';
import { useT } from '../../app/context.js';
import { RetryAlert } from './RetryAlert.js';
import type { EmbedView, WidgetRelease } from './snippet.js';

/** The detail of a map's `poruch:move`. */
interface MoveDetail {
  center: { lat: number; lng: number };
  zoom: number;
}

const loads = new Map<string, Promise<void>>();

/**
 * Adds the loader to this page once, as the snippet loads it (the exact version, its SRI hash,
 * anonymous CORS): the preview is the script-tag build a host page gets, not the site's own
 * React components. Rejects when the browser refuses it (unreachable, or a hash that does not
 * match).
 */
function loadRelease(release: WidgetRelease): Promise<void> {
  let load = loads.get(release.loader);
  if (!load) {
    load = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.type = 'module';
      script.src = release.loader;
      script.integrity = release.integrity;
      script.crossOrigin = 'anonymous';
      script.onload = () => resolve();
      script.onerror = () => {
        loads.delete(release.loader);
        script.remove();
        reject(new Error('[poruch] the widgets loader did not load'));
      };
      document.head.append(script);
    });
    loads.set(release.loader, load);
  }
  return load;
}

/**
 * The live preview: the real `<poruch-*>` element with exactly the snippet's attributes, kept in
 * step in place (the widget follows its attributes), and a new element when the widget changes.
 * A map's `poruch:move` hands its view to `onMove`, which becomes the snippet's `center` and
 * `zoom`.
 */
export function EmbedPreview({
  release,
  tag,
  attributes,
  onMove,
}: {
  release: WidgetRelease;
  tag: string;
  attributes: [string, string][];
  onMove: (view: EmbedView) => void;
}) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const [attempt, setAttempt] = useState(0);
  // The outcome of loading this element's code; anything else is still loading.
  const loadKey = `${release.loader} ${tag} ${attempt}`;
  const [loaded, setLoaded] = useState<{ key: string; ok: boolean } | null>(null);
  const status = loaded?.key !== loadKey ? 'loading' : loaded.ok ? 'ready' : 'error';

  useEffect(() => {
    let live = true;
    loadRelease(release)
      .then(() => customElements.whenDefined(tag))
      .then(
        () => live && setLoaded({ key: loadKey, ok: true }),
        () => live && setLoaded({ key: loadKey, ok: false }),
      );
    return () => {
      live = false;
    };
  }, [release, tag, loadKey]);

  // The element itself: made outside React, so React never sets a property where the snippet has
  // an attribute. `attributes` is new on every render; its text is what matters.
  const attributeKey = JSON.stringify(attributes);
  useEffect(() => {
    const host = box.current;
    if (!host) return;
    const current = host.firstElementChild;
    // A new element gets its attributes before it is connected, as the pasted snippet has them.
    const el = current?.localName === tag ? current : document.createElement(tag);
    const wanted = new Map(JSON.parse(attributeKey) as [string, string][]);
    for (const name of el.getAttributeNames()) {
      if (!wanted.has(name) && name !== 'state') el.removeAttribute(name);
    }
    for (const [name, value] of wanted) {
      if (el.getAttribute(name) !== value) el.setAttribute(name, value);
    }
    if (el !== current) host.replaceChildren(el);
  }, [tag, attributeKey]);

  const latestOnMove = useRef(onMove);
  useEffect(() => {
    latestOnMove.current = onMove;
  });
  useEffect(() => {
    const host = box.current;
    if (!host) return;
    const moved = (e: Event) => {
      const { center, zoom } = (e as CustomEvent<MoveDetail>).detail;
      latestOnMove.current({ lat: center.lat, lng: center.lng, zoom });
    };
    host.addEventListener('poruch:move', moved);
    return () => host.removeEventListener('poruch:move', moved);
  }, []);

  return (
    <div className="embed__preview">
      {status === 'loading' && (
        <p className="embed__status" role="status">
          {t('embed.loading')}
        </p>
      )}
      {status === 'error' && (
        <RetryAlert message={t('embed.preview_failed')} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      <div ref={box} className="embed__element" data-testid="embed-preview" />
    </div>
  );
}
