import { themeVar } from '../shared/theme.js';
import { skeletonStyles } from '../ui/Skeleton.js';

/** Every `part` of `<poruch-search>`, exported for `::part()`. */
export const SEARCH_PARTS = [
  'root',
  'form',
  'field',
  'input',
  'button',
  'retry',
  'error',
  'results',
  'result',
  'result-title',
  'count',
] as const;

export const searchStyles =
  skeletonStyles +
  /* css */ `
form { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-end; margin: 0 0 12px; }
.field { display: flex; flex-direction: column; gap: 4px; flex: 1 1 160px; min-width: 0; }
.field--q { flex: 2 1 240px; }
.field--check { flex-direction: row; align-items: center; gap: 8px; flex: 0 1 auto; min-height: 40px; }
label { font-weight: 600; font-size: 14px; }
input, select {
  font: inherit; color: inherit; background: ${themeVar('--poruch-color-surface')};
  border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')};
  padding: 8px 10px; min-height: 40px; width: 100%;
}
input[type="checkbox"] { width: 20px; height: 20px; min-height: 0; accent-color: ${themeVar('--poruch-color-primary')}; }
/* One line each, so that every row and the count have a fixed height (no layout shift). */
.count {
  color: ${themeVar('--poruch-color-muted')}; font-size: 14px; line-height: 20px; height: 20px; margin: 0 0 8px;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
.results { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.result {
  display: flex; flex-direction: column; gap: 4px; padding: ${themeVar('--poruch-space')};
  background: ${themeVar('--poruch-color-surface')};
  border: 1px solid ${themeVar('--poruch-color-border')}; border-radius: ${themeVar('--poruch-radius')};
}
.result h3, .result .muted { display: block; margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.result h3 { font-size: 17px; line-height: 24px; height: 24px; }
.result a { color: ${themeVar('--poruch-color-primary')}; font-weight: 650; }
.muted { color: ${themeVar('--poruch-color-muted')}; font-size: 14px; line-height: 20px; height: 20px; }
.actions { display: flex; gap: 12px; align-items: center; height: 31px; }
.link {
  background: none; border: 0; padding: 4px 0; font: inherit; line-height: 23px; cursor: pointer; text-decoration: underline;
  color: ${themeVar('--poruch-color-primary')};
}
`;
