import { themeVar } from '../shared/theme.js';

/**
 * The alert dialog's own layout (AlertDialog.tsx), part of the search's and the vacancies' widget
 * stylesheets and of the site's home page (only `.alert-dialog*` and `.alert-button` selectors): a mask over the page and a box that fits 375 px. Inside
 * a widget (`.poruch-root`) it also draws its fields and buttons, whatever the widget's own
 * styles say about forms (the search widget lays its form out in a row).
 */
export const ALERT_DIALOG_CSS = /* css */ `
.alert-dialog { box-sizing: border-box; width: min(480px, calc(100% - 24px)); max-height: calc(100% - 24px); margin: auto; padding: 0; border: 0; border-radius: 8px; overflow: auto; background: var(--poruch-surface, #fff); color: inherit; box-shadow: 0 10px 30px rgb(0 0 0 / 0.25); text-align: start; }
.alert-dialog::backdrop { background: rgb(0 0 0 / 0.45); }
.alert-dialog .alert-dialog__box { display: block; padding: 16px; }
.alert-dialog .dialog__header { display: flex !important; align-items: flex-start; justify-content: space-between; gap: 12px; margin: 0 0 8px; }
.alert-dialog .dialog__title { margin: 0; font-size: 18px; line-height: 1.3; }
.alert-dialog .dialog__actions { display: flex !important; flex-wrap: wrap; justify-content: flex-end; gap: 10px; margin: 0; }
.alert-dialog .alert-dialog__body { display: flex !important; flex-direction: column; flex-wrap: nowrap; align-items: stretch; gap: 12px; margin: 0; }
.alert-dialog .alert-dialog__body > * { flex: none; margin: 0; }
.alert-dialog .alert-dialog__body p { margin: 0; }
.alert-dialog__search ul { display: block; list-style: disc; margin: 4px 0 0; padding-left: 20px; }
.alert-dialog__search li { display: list-item; }
.alert-dialog__label { margin: 0; font-weight: 600; }
.alert-dialog .alert-dialog__frequency { display: flex !important; flex-direction: column; gap: 6px; border: 1px solid #c4c4c4; border-radius: 8px; padding: 8px 12px 12px; margin: 0; min-width: 0; }
.alert-dialog__frequency legend { font-weight: 600; padding: 0 4px; }
.alert-dialog .alert-dialog__option { display: flex !important; flex-direction: row; align-items: center; gap: 8px; cursor: pointer; font-weight: 400; }
.alert-dialog .alert-dialog__option input { width: 18px; height: 18px; min-height: 0; margin: 0; padding: 0; flex: none; }
.alert-dialog .alert-dialog__near { display: flex !important; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
.alert-dialog .alert-dialog__near > .field:first-child { flex: 1 1 220px; min-width: 0; }
.alert-dialog .alert-dialog__near > .field:last-child { flex: 0 0 auto; }
.alert-dialog .combobox { position: relative; display: flex !important; flex-direction: column; }
.alert-dialog .combobox__list { position: absolute; top: calc(100% + 2px); left: 0; right: 0; z-index: 20; max-height: 220px; overflow-y: auto; margin: 0; padding: 4px 0; list-style: none; background: var(--poruch-surface, #fff); border: 1px solid #8a96a8; border-radius: 8px; box-shadow: 0 6px 18px rgb(0 0 0 / 16%); }
.alert-dialog .combobox__list[hidden] { display: none !important; }
.alert-dialog .combobox__option { display: flex !important; align-items: center; min-height: 44px; padding: 6px 12px; cursor: pointer; overflow-wrap: anywhere; }
.alert-dialog .combobox__option--active { background: rgb(127 127 127 / 15%); }
.alert-dialog .field__hint { margin: 0; font-size: 14px; color: #4b5563; }
.alert-dialog .field__error { margin: 0; font-size: 14px; font-weight: 600; color: #b42318; }
.alert-dialog .field--check { display: flex !important; flex-direction: row; flex-wrap: nowrap; align-items: center; gap: 8px; }
.alert-dialog .field--check label { flex: 1 1 auto; min-width: 0; font-weight: 400; }
.alert-dialog .field--check input { width: 18px; height: 18px; min-height: 0; margin: 0; flex: none; }
.poruch-root .alert-dialog { background: ${themeVar('--poruch-color-surface')}; font-size: 16px; line-height: 1.5; }
.poruch-root .alert-dialog__intro { color: ${themeVar('--poruch-color-muted')}; font-size: 14.72px; }
.poruch-root .alert-dialog .field { display: flex !important; flex-direction: column; gap: 4px; }
.poruch-root .alert-dialog .field__label { font-weight: 600; font-size: 14.72px; }
.poruch-root .alert-dialog .field__error { color: ${themeVar('--poruch-color-error')}; font-size: 14.08px; font-weight: 600; }
.poruch-root .alert-dialog .field__hint { color: ${themeVar('--poruch-color-muted')}; font-size: 14.08px; margin: 0; }
.poruch-root .alert-dialog input[type="email"], .poruch-root .alert-dialog input[type="text"], .poruch-root .alert-dialog select { box-sizing: border-box; width: 100%; min-height: 40px; padding: 8px 10px; font: inherit; color: inherit; background: ${themeVar('--poruch-color-surface')}; border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')}; }
.poruch-root .alert-dialog input[type="radio"], .poruch-root .alert-dialog input[type="checkbox"] { accent-color: ${themeVar('--poruch-color-primary')}; }
.poruch-root .alert-dialog .dialog__close { border: 0; background: none; font-size: 24px; line-height: 1; cursor: pointer; color: inherit; padding: 0 4px; }
.poruch-root .alert-dialog .button { display: inline-flex; align-items: center; justify-content: center; min-height: 40px; padding: 8px 14px; border-radius: ${themeVar('--poruch-radius')}; border: 1px solid ${themeVar('--poruch-color-primary')}; background: ${themeVar('--poruch-color-primary')}; color: ${themeVar('--poruch-color-on-primary')}; font: inherit; font-weight: 600; cursor: pointer; }
.poruch-root .alert-dialog .button--secondary { background: ${themeVar('--poruch-color-surface')}; color: ${themeVar('--poruch-color-primary')}; }
.poruch-root .alert-dialog .button:disabled { opacity: 0.55; cursor: not-allowed; }
.poruch-root .alert-button { margin: 0 0 8px; }
`;
