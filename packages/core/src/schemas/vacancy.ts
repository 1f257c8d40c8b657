import { z } from 'zod';
import { LIMITS, optionalText, requiredText } from '../validation.js';
import { EXPERIENCE_KEYS } from '../keys.js';

export { EXPERIENCE_KEYS, type Experience } from '../keys.js';
export const experienceSchema = z.enum(EXPERIENCE_KEYS);

export const vacancyInputSchema = z.strictObject({
  name: requiredText(LIMITS.nameMax),
  /** Requirements and conditions. */
  requirements: optionalText(LIMITS.descriptionMax, { multiline: true }),
  /** Description of duties and skills. */
  description: optionalText(LIMITS.descriptionMax, { multiline: true }),
  salary: optionalText(LIMITS.nameMax),
  experience: experienceSchema.default('any'),
  isOpen: z.boolean().default(true),
});
export type VacancyInput = z.infer<typeof vacancyInputSchema>;

export const vacancySchema = z.object({
  id: z.string(),
  serviceId: z.string(),
  name: z.string(),
  requirements: z.string(),
  description: z.string(),
  salary: z.string(),
  experience: experienceSchema,
  isOpen: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vacancy = z.infer<typeof vacancySchema>;
