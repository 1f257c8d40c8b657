/**
 * The key lists of core's enums, without their zod schemas: categories, experience and report
 * reasons. The schemas (categories.ts, schemas/vacancy.ts, schemas/report.ts) are built from
 * these, and the widgets import them through `@poruch/core/lite`, so a page that only shows
 * data downloads no zod.
 */

/**
 * The 25 category keys, spelled exactly as the API and the stored data spell them ("architeture"
 * included: do not correct it).
 */
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

/** Selectors used in filters: every category, or services with no category. */
export const CATEGORY_SELECTORS = ['all', 'empty'] as const;
export type CategorySelector = (typeof CATEGORY_SELECTORS)[number];
/** A category key or selector, as the filters take it. */
export type CategoryFilter = CategoryKey | CategorySelector;

/** Translation key of a category or selector label. */
export const categoryLabelKey = (key: CategoryFilter): string => `category.${key}`;

/** Required years of experience: any, 1-2, 3-5, 6+. */
export const EXPERIENCE_KEYS = ['any', 'one_two', 'three_five', 'six_plus'] as const;
export type Experience = (typeof EXPERIENCE_KEYS)[number];

/** The reasons of an anonymous report. */
export const REPORT_REASONS = ['wrong_address', 'no_contact', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
