import { themeVar, tint } from '../shared/theme.js';

/**
 * The styles the form-and-list widgets (vacancies, report, service, dashboard) share, after the
 * shell's reset (shared/theme.ts `SHELL_STYLES`). Colours, font, radius and spacing come from
 * the `--poruch-*` custom properties with the widget theme's defaults (shared/theme.ts), so a
 * host page themes every widget at once. Sizes are px from the root's 16px base, never `rem`.
 */
export const baseStyles = /* css */ `
.poruch-root {
  --_space: ${themeVar('--poruch-space')};
  --_primary: ${themeVar('--poruch-color-primary')};
  --_on-primary: ${themeVar('--poruch-color-on-primary')};
  --_border: ${themeVar('--poruch-color-border')};
  --_surface: ${themeVar('--poruch-color-surface')};
  --_muted: ${themeVar('--poruch-color-muted')};
  --_error: ${themeVar('--poruch-color-error')};
  --_success: ${themeVar('--poruch-color-success')};
  --_warning: ${themeVar('--poruch-color-warning')};
  --_radius: ${themeVar('--poruch-radius')};
}
.poruch-root div, .poruch-root p, .poruch-root ul, .poruch-root li, .poruch-root form, .poruch-root section, .poruch-root nav, .poruch-root header,
.poruch-root article, .poruch-root fieldset, .poruch-root h2, .poruch-root h3, .poruch-root label { display: block; }
.poruch-root h2, .poruch-root h3, .poruch-root p, .poruch-root ul { margin: 0; padding: 0; }
.poruch-root ul { list-style: none; }
.poruch-root h2 { font-size: 20px; font-weight: 700; }
.poruch-root h3 { font-size: 16.8px; font-weight: 650; }
.poruch-root a { color: var(--_primary); text-decoration: underline; }
.stack { display: flex !important; flex-direction: column; gap: var(--_space); }
.row { display: flex !important; flex-wrap: wrap; gap: calc(var(--_space) * .75); align-items: end; }
.muted { color: var(--_muted); font-size: 14.72px; }
.button {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  min-height: 40px; padding: 8px 14px; border-radius: var(--_radius);
  border: 1px solid var(--_primary); background: var(--_primary); color: var(--_on-primary);
  font: inherit; font-weight: 600; cursor: pointer; text-decoration: none;
}
/* A link styled as a button: \`.poruch-root a\` would otherwise paint its text in the button's colour. */
.poruch-root a.button { color: var(--_on-primary); text-decoration: none; }
.button--secondary, .poruch-root a.button--secondary { background: var(--_surface); color: var(--_primary); }
.button--danger { background: var(--_surface); color: var(--_error); border-color: var(--_error); }
.button--link { background: none; border: none; color: var(--_primary); padding: 4px 0; min-height: 0; text-decoration: underline; font-weight: 500; }
.button:disabled { opacity: .55; cursor: not-allowed; }
.field { display: flex !important; flex-direction: column; gap: 4px; min-width: 0; flex: 1 1 180px; }
.field--check { flex-direction: row; align-items: flex-start; gap: 8px; flex-wrap: wrap; }
.field--check input { margin-top: 4px; width: 18px; height: 18px; flex: none; }
.field--check label { flex: 1 1 0; }
.field--check .field__error { flex-basis: 100%; }
.field__label { font-weight: 600; font-size: 14.72px; }
.field__hint { color: var(--_muted); font-size: 13.6px; }
.field__error { color: var(--_error); font-size: 14.08px; font-weight: 600; }
.poruch-root input, .poruch-root select, .poruch-root textarea {
  font: inherit; color: inherit; background: var(--_surface);
  border: 1px solid var(--_border); border-radius: var(--_radius);
  padding: 8px 10px; min-height: 40px; width: 100%; display: block;
}
.poruch-root input[type="checkbox"], .poruch-root input[type="radio"] { width: auto; min-height: 0; display: inline-block; accent-color: var(--_primary); }
.poruch-root textarea { min-height: 96px; resize: vertical; }
.poruch-root [aria-invalid="true"] { border-color: var(--_error); }
.card {
  display: block; border: 1px solid var(--_border); border-radius: var(--_radius);
  background: var(--_surface); padding: var(--_space);
}
.badge {
  display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12.8px; font-weight: 600;
  background: ${tint('--poruch-color-muted')}; color: var(--_muted);
}
.badge--open, .badge--approved { background: ${tint('--poruch-color-success')}; color: var(--_success); }
.badge--declined { background: ${tint('--poruch-color-error')}; color: var(--_error); }
.badge--pending { background: ${tint('--poruch-color-warning')}; color: var(--_warning); }
.status { display: flex !important; align-items: center; flex-wrap: wrap; gap: 10px; padding: var(--_space); color: var(--_muted); }
.status--success { color: var(--_success); border: 1px solid var(--_success); border-radius: var(--_radius); background: ${tint('--poruch-color-success')}; }
.spinner {
  display: inline-block; width: 18px; height: 18px; border-radius: 50%;
  border: 3px solid var(--_border); border-top-color: var(--_primary);
  animation: poruch-spin .8s linear infinite;
}
@keyframes poruch-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
.pagination { display: flex !important; align-items: center; justify-content: center; gap: 12px; flex-wrap: wrap; }
.flag { display: inline-flex; align-items: center; gap: 6px; }
.flag__img { width: 20px; height: 15px; border-radius: 2px; box-shadow: 0 0 0 1px rgba(0,0,0,.12); display: inline-block; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
