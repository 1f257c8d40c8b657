// Zod-free, so that constants.ts and the widgets' lean entry (lite.ts) can use it.
/** Bounds of the free-text fields. */
export const LIMITS = {
  nameMax: 120,
  personNameMax: 80,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  phoneMax: 32,
  addressMax: 300,
  urlMax: 500,
  descriptionMax: 5000,
  reportDescriptionMax: 2000,
  campaignSubjectMax: 200,
  campaignContentMax: 50_000,
  adminSearchMin: 3,
  /** A search's text (`q`), in the API and in every search box. */
  searchQueryMax: 200,
} as const;
