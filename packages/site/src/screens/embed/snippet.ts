/**
 * What the embed builder makes: the attributes of the chosen widget and the HTML snippet that
 * carries them (docs/embedding.md, Without code: the embed builder). The preview sets the same
 * attributes on the real element, so what is copied is what was shown.
 */
import type { LocaleCode, RuntimeConfig } from '@poruch/core';

/** The widgets the builder offers. */
export const EMBED_WIDGETS = ['map', 'search', 'vacancies', 'report'] as const;
export type EmbedWidget = (typeof EMBED_WIDGETS)[number];

export const EMBED_THEMES = ['light', 'dark', 'auto'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** A setting of the form; each widget shows only its own. */
export type EmbedField = 'service' | 'q' | 'country' | 'category' | 'view' | 'height';

/** The settings each widget takes, in the order the form shows them. */
export const WIDGET_FIELDS: Record<EmbedWidget, readonly EmbedField[]> = {
  map: ['country', 'category', 'q', 'view', 'height'],
  search: ['q', 'country', 'category', 'height'],
  vacancies: ['service', 'country', 'category', 'height'],
  report: ['service'],
};

/** The height a person may give, in CSS pixels. */
export const HEIGHT_RANGE = { min: 200, max: 1200 } as const;

/** The map's start view: the preview map's centre and zoom. */
export interface EmbedView {
  lat: number;
  lng: number;
  zoom: number;
}

/** Everything the person chose. Empty strings and null mean "the widget's default". */
export interface EmbedChoice {
  widget: EmbedWidget;
  lang: LocaleCode;
  theme: EmbedTheme;
  country: string;
  category: string;
  q: string;
  serviceId: string;
  /** Set once the preview map has moved (or measured itself); null: the widget's default view. */
  view: EmbedView | null;
  /** Pixels, or null for the widget's own height. */
  height: number | null;
}

/** The served build the snippet loads (`GET /env`'s `widgets`). */
export type WidgetRelease = NonNullable<RuntimeConfig['widgets']>;

/** Four decimals of a degree: about 10 m, plenty for a start view. */
const coordinate = (n: number) => String(Math.round(n * 1e4) / 1e4);

/**
 * The element's attributes, in a fixed order, leaving out what is not set or does not apply to
 * the widget (a map's `q`, a vacancy board's country once it shows one service).
 */
export function widgetAttributes(choice: EmbedChoice): [string, string][] {
  const uses = (field: EmbedField) => WIDGET_FIELDS[choice.widget].includes(field);
  const attrs: [string, string][] = [
    ['lang', choice.lang],
    ['theme', choice.theme],
  ];
  const service = uses('service') ? choice.serviceId : '';
  if (service) attrs.push(['service-id', service]);
  if (uses('q') && choice.q.trim()) attrs.push(['q', choice.q.trim()]);
  if (!service) {
    if (uses('country') && choice.country) attrs.push(['country', choice.country]);
    if (uses('category') && choice.category) attrs.push(['category', choice.category]);
  }
  if (uses('view') && choice.view) {
    attrs.push(['center', `${coordinate(choice.view.lat)},${coordinate(choice.view.lng)}`]);
    attrs.push(['zoom', String(choice.view.zoom)]);
  }
  if (uses('height') && choice.height !== null) {
    attrs.push([
      'style',
      choice.widget === 'map'
        ? `--poruch-map-height: ${choice.height}px`
        : `height: ${choice.height}px; overflow: auto`,
    ]);
  }
  return attrs;
}

/** `value` inside a double-quoted HTML attribute. */
export function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

const attributeList = (attrs: [string, string][]) =>
  attrs.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');

/** The snippet: the loader at the exact version with its SRI hash, then the element. */
export function embedSnippet(release: WidgetRelease, choice: EmbedChoice): string {
  const tag = `poruch-${choice.widget}`;
  const script = attributeList([
    ['type', 'module'],
    ['src', release.loader],
    ['integrity', release.integrity],
    ['crossorigin', 'anonymous'],
  ]);
  return `<script${script}></script>\n<${tag}${attributeList(widgetAttributes(choice))}></${tag}>\n`;
}
