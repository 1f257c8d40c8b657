import { z } from 'zod';
import { LOCALE_CODES } from '../i18n/locales.js';
import {
  LIMITS,
  VALIDATION_KEYS,
  emailSchema,
  passwordSchema,
  phoneSchema,
  requiredText,
  text,
} from '../validation.js';
import { ACCOUNT_TYPES } from '../accountRoles.js';

export const accountTypeSchema = z.enum(ACCOUNT_TYPES);

export const localeSchema = z.enum(LOCALE_CODES);

/** An account as the API returns it. The password hash never leaves the server. */
export const accountSchema = z.object({
  id: z.string(),
  email: z.string(),
  type: accountTypeSchema,
  /** The administrator may add administrators. */
  isSuper: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  locale: localeSchema,
  marketingConsent: z.boolean(),
  createdAt: z.string(),
});
export type Account = z.infer<typeof accountSchema>;

/** "Is admin" and "is client (partner)" indicators (docs/product.md, Login state and roles). */
export { ACCOUNT_TYPES, isAdmin, isPartner, type AccountType } from '../accountRoles.js';

/** Body of `POST auth/login`. */
export const credentialsSchema = z.strictObject({
  email: emailSchema,
  password: text({ trim: false }).min(1).max(LIMITS.passwordMax),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** Answer of `GET auth/check`. */
export const authCheckSchema = z.object({
  status: z.boolean(),
  account: accountSchema.nullable(),
});
export type AuthCheck = z.infer<typeof authCheckSchema>;

const personalDataFields = {
  firstName: requiredText(LIMITS.personNameMax),
  lastName: text().max(LIMITS.personNameMax),
  phone: phoneSchema,
  locale: localeSchema,
  marketingConsent: z.boolean(),
};

/** Personal data of a new account; what is left out gets its default. */
export const personalDataSchema = z.strictObject({
  ...personalDataFields,
  lastName: personalDataFields.lastName.default(''),
  phone: personalDataFields.phone.default(''),
  locale: personalDataFields.locale.default('ua'),
  marketingConsent: personalDataFields.marketingConsent.default(false),
});
export type PersonalData = z.infer<typeof personalDataSchema>;

/** The body of `PUT auth/update`: only the fields sent change (no defaults here). */
export const personalDataUpdateSchema = z.strictObject(personalDataFields).partial();
export type PersonalDataUpdate = z.infer<typeof personalDataUpdateSchema>;

/** Change of e-mail or password: the current password is always required. */
export const credentialsChangeSchema = z
  .strictObject({
    currentPassword: text({ trim: false }).min(1).max(LIMITS.passwordMax),
    email: emailSchema.optional(),
    newPassword: passwordSchema.optional(),
    confirmPassword: text({ trim: false }).max(LIMITS.passwordMax).optional(),
  })
  .refine((v) => v.email !== undefined || v.newPassword !== undefined, {
    error: VALIDATION_KEYS.required,
    path: ['newPassword'],
  })
  // A new password is typed twice: an empty confirmation is missing, another one does not match.
  .refine((v) => v.newPassword === undefined || !!v.confirmPassword, {
    error: VALIDATION_KEYS.required,
    path: ['confirmPassword'],
    abort: true,
  })
  .refine((v) => v.newPassword === undefined || v.newPassword === v.confirmPassword, {
    error: VALIDATION_KEYS.passwordsMustMatch,
    path: ['confirmPassword'],
  });
export type CredentialsChange = z.infer<typeof credentialsChangeSchema>;

/** Body of `POST auth/reset-password`. */
export const resetPasswordSchema = z.strictObject({ email: emailSchema });
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** Body of `DELETE account`: the current password confirms the deletion. */
export const accountDeletionSchema = z.strictObject({
  currentPassword: text({ trim: false }).min(1).max(LIMITS.passwordMax),
});
export type AccountDeletion = z.infer<typeof accountDeletionSchema>;

/** A new account's sign-up part (registration and admin creation). */
export const accountSignUpSchema = personalDataSchema.extend({
  email: emailSchema,
  password: passwordSchema,
  /** The password typed again: required; the registration checks that the two match. */
  confirmPassword: text({ trim: false }).min(1).max(LIMITS.passwordMax),
});

/** Body of `POST admin/administrators`: super admins only. */
export const adminCreateSchema = z.strictObject({
  email: emailSchema,
  firstName: requiredText(LIMITS.personNameMax),
  isSuper: z.boolean().default(false),
});
export type AdminCreate = z.infer<typeof adminCreateSchema>;

/**
 * What a super administrator makes of an administrator: a super administrator, an
 * administrator, or no administrator at all (an ordinary partner account).
 */
export const ADMIN_ROLES = ['super', 'admin', 'none'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
/** Body of `PUT admin/administrators/:id/role`. */
export const adminRoleSchema = z.strictObject({ role: z.enum(ADMIN_ROLES) });
export type AdminRoleChange = z.infer<typeof adminRoleSchema>;

/** One administrator in `GET admin/administrators`. */
export const administratorSchema = accountSchema.pick({
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  isSuper: true,
  createdAt: true,
});
export type Administrator = z.infer<typeof administratorSchema>;
export const administratorListSchema = z.object({ items: z.array(administratorSchema) });
export type AdministratorList = z.infer<typeof administratorListSchema>;
