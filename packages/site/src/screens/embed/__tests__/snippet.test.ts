import { describe, expect, it } from 'vitest';
import { embedSnippet, widgetAttributes, type EmbedChoice } from '../snippet.js';

const release = {
  version: '1.2.3',
  loader: 'https://poruch.example/widgets/1.2.3/poruch.js',
  integrity: 'sha384-abc',
};
const base: EmbedChoice = {
  widget: 'map',
  lang: 'ua',
  theme: 'light',
  country: '',
  category: '',
  q: '',
  serviceId: '',
  view: null,
  height: null,
};

describe('the embed snippet', () => {
  it('is the exact loader with its SRI, then the element with only what is set', () => {
    expect(embedSnippet(release, base)).toBe(
      '<script type="module" src="https://poruch.example/widgets/1.2.3/poruch.js" integrity="sha384-abc" crossorigin="anonymous"></script>\n' +
        '<poruch-map lang="ua" theme="light"></poruch-map>\n',
    );
  });

  it('escapes every value inside its attribute', () => {
    const snippet = embedSnippet(release, {
      ...base,
      widget: 'search',
      q: `"><script>alert(1)</script> & 'x'`,
    });
    expect(snippet).toContain(
      ` q="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; 'x'"></poruch-search>`,
    );
    expect(snippet.match(/<script/g)).toHaveLength(1);
  });

  it('gives each widget only its own settings: a board with a service drops country and category', () => {
    const all = {
      ...base,
      country: 'PL',
      category: 'food',
      q: 'борщ',
      serviceId: 'a-service',
      view: { lat: 50.061432, lng: 19.936587, zoom: 11 },
      height: 600,
    };
    expect(widgetAttributes({ ...all, widget: 'map' })).toEqual([
      ['lang', 'ua'],
      ['theme', 'light'],
      ['q', 'борщ'],
      ['country', 'PL'],
      ['category', 'food'],
      ['center', '50.0614,19.9366'],
      ['zoom', '11'],
      ['style', '--poruch-map-height: 600px'],
    ]);
    expect(widgetAttributes({ ...all, widget: 'vacancies' })).toEqual([
      ['lang', 'ua'],
      ['theme', 'light'],
      ['service-id', 'a-service'],
      ['style', 'height: 600px; overflow: auto'],
    ]);
    expect(widgetAttributes({ ...all, widget: 'vacancies', serviceId: '' })).toEqual([
      ['lang', 'ua'],
      ['theme', 'light'],
      ['country', 'PL'],
      ['category', 'food'],
      ['style', 'height: 600px; overflow: auto'],
    ]);
    expect(widgetAttributes({ ...all, widget: 'report' })).toEqual([
      ['lang', 'ua'],
      ['theme', 'light'],
      ['service-id', 'a-service'],
    ]);
  });
});
