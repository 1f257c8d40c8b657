import { z } from 'zod';

/**
 * Keys of the error catalogue (docs/product.md, Errors), plus the keys the server adds for its own
 * failures. Each key is translated under `error.<key>` in every locale.
 */
export const ERROR_KEYS = [
  // the catalogue
  'wrong_user_or_password',
  'email_is_used',
  'unauthorized',
  'bad_request',
  'internal_server_error',
  'not_found',
  'resource_was_not_found',
  // ours
  'forbidden',
  'csrf_token_invalid',
  'too_many_requests',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'invalid_json',
  'terms_not_agreed',
  'wrong_current_password',
  'admin_search_too_short',
  'service_unavailable',
  'last_super_admin',
  'reconfirm_link_invalid',
  'reconfirm_link_expired',
  'service_not_approved',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];
export const errorKeySchema = z.enum(ERROR_KEYS);

/** One broken rule of one field: `key` is a `validation.*` translation key, `params` its values. */
export const fieldErrorSchema = z.object({
  field: z.string(),
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * The body of every error answer: `errors.message` is a catalogue key,
 * `error.message` a detail key where there is one, `errors.fields` the broken validation rules.
 */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  errors: z.object({
    message: errorKeySchema,
    fields: z.array(fieldErrorSchema).optional(),
  }),
  error: z.object({ message: z.string() }).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An expected failure carrying a catalogue key. The server maps it to its status and error body. */
export class PoruchError extends Error {
  override readonly name = 'PoruchError';
  constructor(
    readonly statusCode: number,
    readonly key: ErrorKey,
    readonly detail?: string,
    readonly fields?: FieldError[],
  ) {
    super(detail ? `${key}: ${detail}` : key);
  }

  toBody(): ErrorBody {
    return {
      statusCode: this.statusCode,
      errors: { message: this.key, ...(this.fields ? { fields: this.fields } : {}) },
      ...(this.detail ? { error: { message: this.detail } } : {}),
    };
  }
}
