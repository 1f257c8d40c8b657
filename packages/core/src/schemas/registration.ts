import { z } from 'zod';
import { VALIDATION_KEYS } from '../validation.js';
import { accountSchema, accountSignUpSchema } from './account.js';
import { requireAddressConfirmation, serviceInputSchema, serviceSchema } from './service.js';

/**
 * Body of `POST auth/register`: the partner's account and first service.
 * The terms must be agreed and the passwords must match.
 */
export const registrationSchema = z
  .strictObject({
    account: accountSignUpSchema.strict(),
    service: requireAddressConfirmation(serviceInputSchema),
    termsAgreed: z.literal(true, { error: VALIDATION_KEYS.mustAgree }),
  })
  // An empty confirmation already says "required".
  .refine((r) => !r.account.confirmPassword || r.account.password === r.account.confirmPassword, {
    error: VALIDATION_KEYS.passwordsMustMatch,
    path: ['account', 'confirmPassword'],
  });
export type Registration = z.infer<typeof registrationSchema>;

export const registrationResultSchema = z.object({
  account: accountSchema,
  service: serviceSchema,
});
export type RegistrationResult = z.infer<typeof registrationResultSchema>;
