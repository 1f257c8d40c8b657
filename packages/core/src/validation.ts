import { z } from 'zod';
import type { FieldError } from './errors.js';
import { LIMITS } from './limits.js';

// Zod's fast object parser is compiled with `new Function`, which a policy without
// 'unsafe-eval' blocks (the site's own, a page embedding the widgets); even its probe is reported
// as a violation. The plain parser gives the same results. Every schema imports this module.
// An empty text is missing whatever rule it breaks (a password of at least 8 characters, a
// country code of two letters, one of the categories), so it says "required", not "at least 8
// characters": only here does an issue still carry its input. A message set on a schema wins.
const EMPTY_IS_MISSING = new Set(['too_small', 'invalid_format', 'invalid_value']);
z.config({
  jitless: true,
  customError: (issue) =>
    issue.input === '' && EMPTY_IS_MISSING.has(issue.code ?? '')
      ? VALIDATION_KEYS.required
      : undefined,
});

/**
 * Validation message keys (docs/product.md, Forms and validation messages). Each is translated
 * under its own key and takes the parameters named in its comment.
 */
export const VALIDATION_KEYS = {
  /** "{name} required field" */
  required: 'validation.required',
  /** "Passwords must match" */
  passwordsMustMatch: 'validation.passwords_must_match',
  /** "E-mail must look like {email}" */
  email: 'validation.email',
  /** "A link must contain http:// or {host}" */
  link: 'validation.link',
  /** "A wrong address was chosen" */
  wrongAddress: 'validation.wrong_address',
  /** "The address is ambiguous: add more details or select one of the options" */
  ambiguousAddress: 'validation.ambiguous_address',
  /** "At least {length} elements" */
  minElements: 'validation.min_elements',
  /** "Minimum length {length} characters" */
  minLength: 'validation.min_length',
  /** "Maximum length {length} characters" */
  maxLength: 'validation.max_length',
  /** "Must be agreed" (terms and conditions, address confirmation) */
  mustAgree: 'validation.must_agree',
  /** "The value is not valid" (wrong type, unknown option) */
  invalid: 'validation.invalid',
  /** "Unknown field" */
  unknownField: 'validation.unknown_field',
  /** "Telephone must look like {phone}" */
  phone: 'validation.phone',
  /** "Only http:// and https:// links are allowed" (a website with another scheme: javascript:, data:…) */
  linkScheme: 'validation.link_scheme',
  /** "A telephone number, not a link: digits like {phone}" (javascript:, sms:, a URL…) */
  phoneScheme: 'validation.phone_scheme',
  /** "Notifications only through a public push service" (a push endpoint on an internal host) */
  pushEndpoint: 'validation.push_endpoint',
  /**
   * "{name}: remove control characters and broken symbols" (U+0000, another control character,
   * half of a surrogate pair: see FORBIDDEN_TEXT)
   */
  invalidCharacters: 'validation.invalid_characters',
  /** "The end date cannot be before the start date" (a date range) */
  dateRange: 'validation.date_range',
} as const;

/** Example values shown inside the messages. */
export const VALIDATION_EXAMPLES = {
  email: 'name@example.com',
  host: 'https://',
  phone: '+48 123 456 789',
} as const;

/**
 * Turns one zod issue into the key and parameters of a validation message.
 * The client and the server both use it, so a rule's message is written once.
 */
export function issueToFieldError(issue: z.core.$ZodIssue): FieldError[] {
  const field = issue.path.map(String).join('.');
  const name = issue.path.length ? String(issue.path[issue.path.length - 1]) : '';
  // A message set on the schema (z.literal(true, { error: VALIDATION_KEYS.mustAgree })) wins.
  if (issue.message.startsWith('validation.')) {
    return [{ field, key: issue.message, params: paramsFor(issue.message, name) }];
  }
  switch (issue.code) {
    case 'invalid_type':
      // Zod leaves `input` out of issues unless asked; its message still names what it got.
      if (
        'input' in issue ? issue.input == null : /received (undefined|null)/.test(issue.message)
      ) {
        return [{ field, key: VALIDATION_KEYS.required, params: { name } }];
      }
      return [{ field, key: VALIDATION_KEYS.invalid, params: { name } }];
    case 'too_small': {
      const length = Number(issue.minimum);
      if (issue.origin === 'string' && length <= 1) {
        return [{ field, key: VALIDATION_KEYS.required, params: { name } }];
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return [{ field, key: VALIDATION_KEYS.minElements, params: { length } }];
      }
      return [{ field, key: VALIDATION_KEYS.minLength, params: { length } }];
    }
    case 'too_big':
      return [{ field, key: VALIDATION_KEYS.maxLength, params: { length: Number(issue.maximum) } }];
    case 'invalid_format':
      if (issue.format === 'email') {
        return [
          { field, key: VALIDATION_KEYS.email, params: { email: VALIDATION_EXAMPLES.email } },
        ];
      }
      if (issue.format === 'url' || issue.format === 'starts_with') {
        return [{ field, key: VALIDATION_KEYS.link, params: { host: VALIDATION_EXAMPLES.host } }];
      }
      return [{ field, key: VALIDATION_KEYS.invalid, params: { name } }];
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        field: [...issue.path.map(String), key].join('.'),
        key: VALIDATION_KEYS.unknownField,
        params: { name: key },
      }));
    default:
      return [{ field, key: VALIDATION_KEYS.invalid, params: { name } }];
  }
}

function paramsFor(key: string, name: string): FieldError['params'] {
  if (key === VALIDATION_KEYS.email) return { email: VALIDATION_EXAMPLES.email };
  if (key === VALIDATION_KEYS.link) return { host: VALIDATION_EXAMPLES.host };
  if (key === VALIDATION_KEYS.phone || key === VALIDATION_KEYS.phoneScheme) {
    return { phone: VALIDATION_EXAMPLES.phone };
  }
  if (key === VALIDATION_KEYS.linkScheme) return {};
  return { name };
}

/** All broken rules of a failed parse, one entry per field and rule. */
export function zodErrorToFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap(issueToFieldError);
}

export { LIMITS };

/**
 * What no text the API accepts may hold. U+0000, which PostgreSQL refuses in text (the query
 * failed, a 500); a lone surrogate, which has no UTF-8 (the driver stored U+FFFD instead); and the
 * other control characters, C0 (U+0001–U+001F), DEL and C1 (U+0080–U+009F), which no one types
 * and which only hide or garble text. `multiline` texts (descriptions, requirements, a report,
 * a decline reason, a campaign) keep tab, line feed and carriage return. Bidirectional marks
 * (U+200F, U+202E, U+2066–U+2069) are allowed: Hebrew and Arabic text needs them, and every page
 * shows stored text as text, isolated. Emoji (surrogate pairs) are characters like any other.
 */
export const FORBIDDEN_TEXT = {
  // Cc is exactly U+0000–U+001F and U+007F–U+009F; with the u flag, Cs matches only a surrogate
  // that is not half of a pair (a pair is read as one code point).
  line: /[\p{Cc}\p{Cs}]/u,
  multiline: /(?![\t\n\r])[\p{Cc}\p{Cs}]/u,
} as const;

const forbiddenTextCheck = (rule: RegExp) =>
  // Aborts: a value that cannot be stored gets this one message, not every rule after it.
  z.refine<string>((v) => !rule.test(v), { error: VALIDATION_KEYS.invalidCharacters, abort: true });
const TEXT_CHECKS = {
  line: forbiddenTextCheck(FORBIDDEN_TEXT.line),
  multiline: forbiddenTextCheck(FORBIDDEN_TEXT.multiline),
};

export interface TextOptions {
  /** Keep tab, line feed and carriage return (descriptions). Defaults to false. */
  multiline?: boolean;
  /** Trim white space first (not passwords). Defaults to true. */
  trim?: boolean;
}

/**
 * The one builder of every text an input schema takes (bodies, query strings, route
 * parameters): a string without the characters of FORBIDDEN_TEXT, which answer
 * validation.invalid_characters. Chain the lengths and formats on it.
 */
export const text = ({ multiline = false, trim = true }: TextOptions = {}) => {
  const base = trim ? z.string().trim() : z.string();
  return base.check(TEXT_CHECKS[multiline ? 'multiline' : 'line']);
};

/** True when a zod string schema was built by text() (or carries its check). */
const hasTextCheck = (schema: z.core.$ZodType): boolean =>
  ((schema._zod.def as { checks?: unknown[] }).checks ?? []).some(
    (check) => check === TEXT_CHECKS.line || check === TEXT_CHECKS.multiline,
  );

/**
 * The paths of the strings an input schema takes that were not built by text(): every one of
 * them could carry U+0000 or a lone surrogate to the database. Strings of a fixed shape are
 * exempt: a UUID (hex digits and dashes), an ISO date or date-time (digits, `-`, `:`, `T`, `.`,
 * `Z`, `+`), and enums. The tests walk every input schema and every route's schemas with it and
 * expect none.
 */
const SHAPED_FORMATS = new Set(['uuid', 'date', 'datetime']);
export function uncheckedTexts(schema: z.core.$ZodType, path = ''): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const walk = (inner: unknown, at = path) => uncheckedTexts(inner as z.core.$ZodType, at);
  const key = (k: string) => (path ? `${path}.${k}` : k);
  switch (def.type) {
    case 'string':
      return SHAPED_FORMATS.has(def.format as string) || hasTextCheck(schema)
        ? []
        : [path || '(value)'];
    case 'object':
      return [
        ...Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) =>
          walk(v, key(k)),
        ),
        ...(def.catchall ? walk(def.catchall, key('*')) : []),
      ];
    case 'record':
      return [...walk(def.keyType, key('(key)')), ...walk(def.valueType, key('*'))];
    case 'array':
    case 'set':
      return walk(def.element ?? def.valueType, key('[]'));
    case 'tuple':
      return [...(def.items as unknown[]), ...(def.rest ? [def.rest] : [])].flatMap((item, i) =>
        walk(item, key(String(i))),
      );
    case 'union':
      return (def.options as unknown[]).flatMap((option) => walk(option));
    case 'intersection':
      return [...walk(def.left), ...walk(def.right)];
    case 'pipe':
      // What a client sends is the pipe's input; its output was checked on the way in, unless
      // the input is a preprocess transform.
      return (def.in as z.core.$ZodType)._zod.def.type === 'transform'
        ? walk(def.out)
        : walk(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return walk(def.innerType);
    default:
      return [];
  }
}

/** A required, trimmed text of at most `max` characters. */
export const requiredText = (max: number, options?: TextOptions) => text(options).min(1).max(max);
/** An optional text of at most `max` characters; missing becomes the empty string. */
export const optionalText = (max: number, options?: TextOptions) =>
  text(options).max(max).default('');

export const emailSchema = text()
  .min(1)
  .max(LIMITS.emailMax)
  .pipe(z.email({ error: VALIDATION_KEYS.email }))
  .transform((e) => e.toLowerCase());

export const passwordSchema = text({ trim: false }).min(LIMITS.passwordMin).max(LIMITS.passwordMax);

/** A URL scheme at the start of a value (`javascript:`, `data:`, `https:`), lower-cased, or null. */
const schemeOf = (v: string): string | null =>
  // Browsers drop control characters and spaces inside a scheme (`java\nscript:`).
  // eslint-disable-next-line no-control-regex
  /^([a-z][a-z0-9+.-]*):/i.exec(v.replace(/[\u0000-\u0020]/g, ''))?.[1]?.toLowerCase() ?? null;

/**
 * Only http and https links: a `javascript:`, `data:` or `vbscript:` URL never reaches a page.
 * Another scheme gets its own message (validation.link_scheme); a value without one (a bare
 * host) the general one (validation.link). Renderers check again (safeWebHref in the widgets).
 */
export const websiteSchema = text()
  .max(LIMITS.urlMax)
  .superRefine((v, ctx) => {
    if (v === '') return;
    const scheme = schemeOf(v);
    if (scheme !== null && scheme !== 'http' && scheme !== 'https') {
      ctx.addIssue({ code: 'custom', message: VALIDATION_KEYS.linkScheme });
    } else if (!/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v)) {
      ctx.addIssue({ code: 'custom', message: VALIDATION_KEYS.link });
    }
  });

/**
 * Digits, spaces, dashes, dots, parentheses and a leading plus: safe inside a tel: link, which
 * the renderers build from the digits (a stored value is never an href). A value with a scheme
 * other than `tel:` (`javascript:`, `sms:`, `https:`) gets validation.phone_scheme.
 */
export const phoneSchema = text()
  .max(LIMITS.phoneMax)
  .superRefine((v, ctx) => {
    if (v === '' || /^(\+|\()?[0-9][0-9 ().-]{4,}$/.test(v)) return;
    const scheme = schemeOf(v);
    ctx.addIssue({
      code: 'custom',
      message:
        scheme !== null && scheme !== 'tel' ? VALIDATION_KEYS.phoneScheme : VALIDATION_KEYS.phone,
    });
  });
