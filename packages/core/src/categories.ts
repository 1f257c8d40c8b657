import { z } from 'zod';

/** The 25 category keys of spec §3, spelled exactly as the spec spells them ("architeture" included). */
export const CATEGORY_KEYS = [
  'auto',
  'beauty_and_health',
  'commerce',
  'clothes',
  'psychology',
  'tourism',
  'culture',
  'education',
  'food',
  'for_animals',
  'for_kids',
  'legal_services',
  'medicine',
  'other_services',
  'religion',
  'sports',
  'translations',
  'architeture',
  'it',
  'photovideo',
  'realestate',
  'work',
  'transportations',
  'cleaning',
  'social_org',
] as const;

export type CategoryKey = (typeof CATEGORY_KEYS)[number];
// Pure, so bundles that use only the keys (the widgets) leave zod out.
export const categorySchema = /* @__PURE__ */ z.enum(CATEGORY_KEYS);

/** Selectors used in filters: every category, or services with no category. */
export const CATEGORY_SELECTORS = ['all', 'empty'] as const;
export type CategorySelector = (typeof CATEGORY_SELECTORS)[number];
export const categoryFilterSchema = /* @__PURE__ */ z.enum([
  ...CATEGORY_KEYS,
  ...CATEGORY_SELECTORS,
]);
export type CategoryFilter = z.infer<typeof categoryFilterSchema>;

/** Translation key of a category or selector label. */
export const categoryLabelKey = (key: CategoryFilter): string => `category.${key}`;
