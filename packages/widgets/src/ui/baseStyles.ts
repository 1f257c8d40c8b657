/**
 * The styles the form-and-list widgets (vacancies, report, service, dashboard) share, after the
 * shell's reset (shared/theme.ts `SHELL_STYLES`). Colours, font, radius and spacing come from `--poruch-*` custom properties
 * with defaults, so a host page themes every widget at once:
 *
 * `--poruch-font`, `--poruch-color-text`, `--poruch-color-muted`, `--poruch-color-bg`,
 * `--poruch-color-surface`, `--poruch-color-border`, `--poruch-color-primary`,
 * `--poruch-color-on-primary`, `--poruch-color-error`, `--poruch-color-success`,
 * `--poruch-radius`, `--poruch-space`.
 * `--poruch-color-success` is added here for the report's and the dashboard's confirmations.
 */
export const baseStyles = /* css */ `
.poruch-root {
  --_space: var(--poruch-space, 12px);
  --_primary: var(--poruch-color-primary, #0057b7);
  --_on-primary: var(--poruch-color-on-primary, #ffffff);
  --_border: var(--poruch-color-border, #c7ced6);
  --_surface: var(--poruch-color-surface, #ffffff);
  --_muted: var(--poruch-color-muted, #52606d);
  --_error: var(--poruch-color-error, #b42318);
  --_success: var(--poruch-color-success, #0f7b3f);
  --_radius: var(--poruch-radius, 8px);
}
.poruch-root div, .poruch-root p, .poruch-root ul, .poruch-root li, .poruch-root form, .poruch-root section, .poruch-root nav, .poruch-root header,
.poruch-root article, .poruch-root fieldset, .poruch-root h2, .poruch-root h3, .poruch-root label { display: block; }
.poruch-root h2, .poruch-root h3, .poruch-root p, .poruch-root ul { margin: 0; padding: 0; }
.poruch-root ul { list-style: none; }
.poruch-root h2 { font-size: 1.25rem; font-weight: 700; }
.poruch-root h3 { font-size: 1.05rem; font-weight: 650; }
.poruch-root a { color: var(--_primary); text-decoration: underline; }
.stack { display: flex !important; flex-direction: column; gap: var(--_space); }
.row { display: flex !important; flex-wrap: wrap; gap: calc(var(--_space) * .75); align-items: end; }
.muted { color: var(--_muted); font-size: .92rem; }
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
.field__label { font-weight: 600; font-size: .92rem; }
.field__hint { color: var(--_muted); font-size: .85rem; }
.field__error { color: var(--_error); font-size: .88rem; font-weight: 600; }
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
  display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .8rem; font-weight: 600;
  background: #eef2f7; color: var(--_muted);
}
.badge--open, .badge--approved { background: #e3f4ea; color: var(--_success); }
.badge--declined { background: #fdecea; color: var(--_error); }
.badge--pending { background: #fff4d6; color: #7a5200; }
.status { display: flex !important; align-items: center; flex-wrap: wrap; gap: 10px; padding: var(--_space); color: var(--_muted); }
.status--error { color: var(--_error); border: 1px solid var(--_error); border-radius: var(--_radius); background: #fff7f6; }
.status--success { color: var(--_success); border: 1px solid var(--_success); border-radius: var(--_radius); background: #f3fbf6; }
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
