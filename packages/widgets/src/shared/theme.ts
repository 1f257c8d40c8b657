/**
 * The custom properties every widget reads, with their defaults in the light theme. A page
 * themes all widgets at once by setting them on the elements or any ancestor (they inherit
 * through shadow roots); a property the page sets wins over every theme's default:
 *
 * ```css
 * poruch-map, poruch-search { --poruch-color-primary: #005bbb; --poruch-radius: 4px; }
 * ```
 */
export const THEME_DEFAULTS = {
  /** Font stack. Defaults to the system UI font. */
  '--poruch-font': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  /** Text colour. Defaults to #1f2933. */
  '--poruch-color-text': '#1f2933',
  /** Secondary text. Defaults to #52606d. */
  '--poruch-color-muted': '#52606d',
  /** Widget background. Defaults to #ffffff: opaque, so the text is readable on any page. */
  '--poruch-color-bg': '#ffffff',
  /** Cards, inputs, popups. Defaults to #ffffff. */
  '--poruch-color-surface': '#ffffff',
  /** Borders. Defaults to #c7ced6. */
  '--poruch-color-border': '#c7ced6',
  /** Buttons, links, clusters. Defaults to #0057b7 (the flag's blue). */
  '--poruch-color-primary': '#0057b7',
  /** Text on primary. Defaults to #ffffff. */
  '--poruch-color-on-primary': '#ffffff',
  /** Accent: points on the map. Defaults to #d28a00 (a darker flag yellow, for contrast). */
  '--poruch-color-accent': '#d28a00',
  /** Errors. Defaults to #b42318. */
  '--poruch-color-error': '#b42318',
  /** Confirmations and open vacancies. Defaults to #0f7b3f. */
  '--poruch-color-success': '#0f7b3f',
  /** Pending things (a service awaiting review). Defaults to #7a5200. */
  '--poruch-color-warning': '#7a5200',
  /** Focus ring. Defaults to #ffbf47. */
  '--poruch-color-focus': '#ffbf47',
  /** Corner radius. Defaults to 8px. */
  '--poruch-radius': '8px',
  /** Base spacing. Defaults to 12px. */
  '--poruch-space': '12px',
} as const;

export type ThemeProperty = keyof typeof THEME_DEFAULTS;

/**
 * The dark theme's defaults (`theme="dark"`, or `theme="auto"` on a dark system): every text
 * colour has at least 4.5:1 contrast on the background and on surfaces.
 */
export const DARK_THEME: Partial<Record<ThemeProperty, string>> = {
  '--poruch-color-text': '#e8eaed',
  '--poruch-color-muted': '#b4bcc6',
  '--poruch-color-bg': '#17191c',
  '--poruch-color-surface': '#23272c',
  '--poruch-color-border': '#5b6571',
  '--poruch-color-primary': '#8cc2ff',
  '--poruch-color-on-primary': '#0a1b30',
  '--poruch-color-accent': '#f0b429',
  '--poruch-color-error': '#ff9c94',
  '--poruch-color-success': '#71d59f',
  '--poruch-color-warning': '#f5c453',
};

/** The themes of the `theme` attribute; `auto` follows `prefers-color-scheme`. */
export type WidgetTheme = 'light' | 'dark' | 'auto';

/** `light`, `dark` or `auto` from an attribute's text; anything else is `light`. */
export const resolveTheme = (value: string | null | undefined): WidgetTheme =>
  value === 'dark' || value === 'auto' ? value : 'light';

/** The private property holding the current theme's default of `name` (set on `.poruch-root`). */
const fallback = (name: ThemeProperty) => `--_${name.slice(2)}`;

/**
 * A custom property's value with the current theme's default:
 * `var(--poruch-radius, var(--_poruch-radius))`.
 */
export const themeVar = (name: ThemeProperty): string => `var(${name}, var(${fallback(name)}))`;

/** A theme's defaults as the private properties {@link themeVar} falls back to. */
const declarations = (table: Partial<Record<ThemeProperty, string>>) =>
  (Object.entries(table) as [ThemeProperty, string][])
    .map(([name, value]) => `${fallback(name)}: ${value};`)
    .join(' ');

/** A soft background of a colour: `tint('--poruch-color-error')` for the error box. */
export const tint = (name: ThemeProperty): string =>
  `color-mix(in srgb, ${themeVar(name)} 10%, ${themeVar('--poruch-color-surface')})`;

/**
 * The reset every widget's shadow root starts with. `.poruch-root` sets every inherited
 * property itself (`all: initial`, plus `direction` and `unicode-bidi`, which `all` leaves
 * alone), so neither `* { all: unset; color: red !important }` nor `<html dir="rtl">` on the
 * host page, which reach the host element and would be inherited, changes anything inside.
 * Sizes are px (the root's 16px base), never `rem`, which the host's root font size would set.
 */
export const SHELL_STYLES = /* css */ `
:host { display: block; }
.poruch-root {
  all: initial;
  direction: ltr;
  unicode-bidi: isolate;
  display: block;
  box-sizing: border-box;
  position: relative;
  font-family: ${themeVar('--poruch-font')};
  font-size: 16px;
  line-height: 1.45;
  color: ${themeVar('--poruch-color-text')};
  background: ${themeVar('--poruch-color-bg')};
  color-scheme: light;
  ${declarations(THEME_DEFAULTS)}
}
.poruch-root[data-theme="dark"] { color-scheme: dark; ${declarations(DARK_THEME)} }
@media (prefers-color-scheme: dark) {
  .poruch-root[data-theme="auto"] { color-scheme: dark; ${declarations(DARK_THEME)} }
}
.poruch-root[dir="rtl"] { direction: rtl; }
.poruch-root *, .poruch-root *::before, .poruch-root *::after { box-sizing: border-box; }
.poruch-root [hidden] { display: none !important; }
.poruch-root :focus-visible { outline: 3px solid ${themeVar('--poruch-color-focus')}; outline-offset: 2px; }
.poruch-root .poruch-error {
  display: flex; flex-direction: column; align-items: flex-start; gap: 8px;
  padding: ${themeVar('--poruch-space')}; margin: 0;
  border: 1px solid ${themeVar('--poruch-color-error')}; border-radius: ${themeVar('--poruch-radius')};
  background: ${tint('--poruch-color-error')}; color: ${themeVar('--poruch-color-error')};
}
.poruch-root .poruch-error__title, .poruch-root .poruch-error__message { display: block; margin: 0; }
.poruch-root .poruch-error__title { font-weight: 700; }
.poruch-root .poruch-error button, .poruch-button {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  min-height: 40px; padding: 8px 14px; border-radius: ${themeVar('--poruch-radius')};
  border: 1px solid ${themeVar('--poruch-color-primary')};
  background: ${themeVar('--poruch-color-primary')}; color: ${themeVar('--poruch-color-on-primary')};
  font: inherit; font-weight: 600; cursor: pointer;
}
.poruch-visually-hidden {
  position: absolute !important; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap;
}
`;

/**
 * The styles of an element's own (outer) shadow root, around the React tree. Important, because
 * in a shadow root `!important` beats the page, and `* { all: unset }` would make the element
 * inline; the page may still size it (`height`, `width`, `margin`). The font size is fixed so
 * that nothing between the element and the widget's root takes the page's.
 */
export const HOST_STYLES = /* css */ `
:host { display: block !important; visibility: visible !important; contain: layout; font-size: 16px !important; direction: ltr !important; }
:host([hidden]) { display: none !important; }
`;
