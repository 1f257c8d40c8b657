import { z } from 'zod';
import { CATEGORY_KEYS, CATEGORY_SELECTORS } from './keys.js';

export {
  CATEGORY_KEYS,
  CATEGORY_SELECTORS,
  categoryLabelKey,
  type CategoryFilter,
  type CategoryKey,
  type CategorySelector,
} from './keys.js';

// Pure, so bundles that use only the keys (the widgets) leave zod out.
export const categorySchema = /* @__PURE__ */ z.enum(CATEGORY_KEYS);
/** A category key, `all` or `empty`. */
export const categoryFilterSchema = /* @__PURE__ */ z.enum([
  ...CATEGORY_KEYS,
  ...CATEGORY_SELECTORS,
]);
