import { z } from 'zod';
import { text } from '../validation.js';
import { localeSchema } from './account.js';

/** A country in a picker: code, English name and display name. */
export const countryOptionSchema = z.object({
  code: z.string().length(2),
  original: z.string(),
  name: z.string(),
});
export type CountryOption = z.infer<typeof countryOptionSchema>;

/** An interface language in the switcher. */
export const languageOptionSchema = z.object({
  name: z.string(),
  code: localeSchema,
  country: z.enum(['UA', 'GB']),
});
export type LanguageOption = z.infer<typeof languageOptionSchema>;

export const TOAST_SEVERITIES = ['info', 'warn', 'error', 'success'] as const;

/** A toast (docs/product.md, Toasts and dialogs). */
export const toastMessageSchema = z.object({
  severity: z.enum(TOAST_SEVERITIES),
  summary: z.string(),
  detail: z.string().optional(),
  /** Milliseconds before it closes itself. Defaults to 3000. */
  life: z.number().int().positive().optional(),
  /** A sticky toast stays until closed. Defaults to false. */
  sticky: z.boolean().optional(),
  /** Shows a close button. Defaults to true. */
  closable: z.boolean().optional(),
  /** Which toast container shows it. */
  key: z.string().optional(),
});
export type ToastMessage = z.infer<typeof toastMessageSchema>;

/** Runtime configuration from `GET /env`. */
export const runtimeConfigSchema = z.object({
  analyticsId: z.string().nullable(),
  tagManagerId: z.string().nullable(),
  errorReporting: z.object({ enabled: z.boolean(), version: z.string() }),
  vapidPublicKey: z.string().nullable(),
  apiBase: z.string(),
  /**
   * Map tile URL template (`https://…/{z}/{x}/{y}.png`, or `none`) for the site's map and the map
   * widget: the server's TILE_URL. Defaults to OpenStreetMap's, for servers that predate it.
   */
  tileUrl: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /**
   * The widgets' script-tag build this server serves, for the embed builder's snippet: its exact
   * version, the loader's URL at that version and the loader's SRI hash (from the build's
   * manifest.json). Null when the server has no widgets build.
   */
  widgets: z
    .object({ version: z.string(), loader: z.string(), integrity: z.string() })
    .nullable()
    .default(null),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** The browser's PushSubscription, as `toJSON()` gives it. */
export const pushSubscriptionSchema = z.strictObject({
  endpoint: text({ trim: false })
    .max(2000)
    .pipe(z.url({ protocol: /^https$/ })),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    p256dh: text({ trim: false }).min(1).max(200),
    auth: text({ trim: false }).min(1).max(100),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;
