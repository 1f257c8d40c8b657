import { describe, expect, it } from 'vitest';
import '../../dashboard/element.js';
import '../../map/element.js';
import '../../report/element.js';
import '../../search/element.js';
import '../../service/element.js';
import '../../vacancies/element.js';
import type {
  PoruchDashboardElement,
  PoruchElementTagNameMap,
  PoruchMapElement,
  PoruchReportElement,
  PoruchSearchElement,
  PoruchServiceElement,
  PoruchVacanciesElement,
} from '../elements.js';

/** The element's own typed properties: what it adds to HTMLElement, less the read-only `state`. */
type Own<E> = Exclude<keyof E, keyof HTMLElement | 'state'>;
/** Every own property of E, and nothing else (a missing or an extra key is a type error). */
type Keys<E> = Record<Own<E>, true>;

// What the types say each element has. `satisfies` keeps these lists and the types equal; the test
// keeps them equal to the attributes each element really observes.
const TYPED = {
  'poruch-map': {
    apiBase: true,
    theme: true,
    country: true,
    category: true,
    online: true,
    q: true,
    filters: true,
    center: true,
    zoom: true,
    tileUrl: true,
    tileAttribution: true,
    scrollZoom: true,
    channel: true,
    listView: true,
  } satisfies Keys<PoruchMapElement>,
  'poruch-search': {
    apiBase: true,
    theme: true,
    q: true,
    country: true,
    category: true,
    online: true,
    channel: true,
    pageSize: true,
    alerts: true,
  } satisfies Keys<PoruchSearchElement>,
  'poruch-vacancies': {
    apiBase: true,
    theme: true,
    serviceId: true,
    country: true,
    category: true,
    pageSize: true,
    alerts: true,
  } satisfies Keys<PoruchVacanciesElement>,
  'poruch-report': {
    apiBase: true,
    theme: true,
    serviceId: true,
  } satisfies Keys<PoruchReportElement>,
  'poruch-service': {
    apiBase: true,
    theme: true,
    serviceId: true,
    backHref: true,
    tab: true,
  } satisfies Keys<PoruchServiceElement>,
  'poruch-dashboard': { apiBase: true, theme: true } satisfies Keys<PoruchDashboardElement>,
} satisfies Record<keyof PoruchElementTagNameMap, object>;

const camel = (kebab: string) => kebab.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());

describe('the element types', () => {
  it.each(Object.entries(TYPED))(
    '<%s> has a typed property per attribute, no other',
    (tag, keys) => {
      const ctor = customElements.get(tag) as unknown as { observedAttributes: string[] };
      // `lang` is HTMLElement's own property.
      const observed = ctor.observedAttributes.filter((a) => a !== 'lang').map(camel);
      expect(Object.keys(keys).sort()).toEqual(observed.sort());
    },
  );
});
