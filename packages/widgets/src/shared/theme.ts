/**
 * The custom properties every widget reads, with their defaults. A page themes all widgets at
 * once by setting them on the elements or any ancestor (they inherit through shadow roots):
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
  /** Widget background. Defaults to transparent. */
  '--poruch-color-bg': 'transparent',
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
  /** Focus ring. Defaults to #ffbf47. */
  '--poruch-color-focus': '#ffbf47',
  /** Corner radius. Defaults to 8px. */
  '--poruch-radius': '8px',
  /** Base spacing. Defaults to 12px. */
  '--poruch-space': '12px',
} as const;

/** A custom property's value with its default: `var(--poruch-radius, 8px)`. */
export const themeVar = (name: keyof typeof THEME_DEFAULTS): string =>
  `var(${name}, ${THEME_DEFAULTS[name]})`;

/**
 * The reset every widget's shadow root starts with. `.poruch-root` sets every inherited
 * property itself (`all: initial`), so `* { all: unset; color: red !important }` on the host
 * page, which reaches the host element and would be inherited, changes nothing inside.
 */
export const SHELL_STYLES = /* css */ `
:host { display: block; }
.poruch-root {
  all: initial;
  display: block;
  box-sizing: border-box;
  position: relative;
  font-family: ${themeVar('--poruch-font')};
  font-size: 16px;
  line-height: 1.45;
  color: ${themeVar('--poruch-color-text')};
  background: ${themeVar('--poruch-color-bg')};
}
.poruch-root *, .poruch-root *::before, .poruch-root *::after { box-sizing: border-box; }
.poruch-root [hidden] { display: none !important; }
.poruch-root :focus-visible { outline: 3px solid ${themeVar('--poruch-color-focus')}; outline-offset: 2px; }
.poruch-error {
  display: flex; flex-direction: column; align-items: flex-start; gap: 10px;
  padding: ${themeVar('--poruch-space')};
  border: 1px solid ${themeVar('--poruch-color-error')}; border-radius: ${themeVar('--poruch-radius')};
  background: #fff7f6; color: ${themeVar('--poruch-color-error')};
}
.poruch-error strong { font-weight: 700; }
.poruch-error button, .poruch-button {
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
 * inline; the page may still size it (`height`, `width`, `margin`).
 */
export const HOST_STYLES = /* css */ `
:host { display: block !important; visibility: visible !important; contain: layout; }
:host([hidden]) { display: none !important; }
`;
