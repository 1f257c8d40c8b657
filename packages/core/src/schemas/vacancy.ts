import { z } from 'zod';
import { LIMITS, optionalText, requiredText } from '../validation.js';

/** Required years of experience: any, 1-2, 3-5, 6+. */
export const EXPERIENCE_KEYS = ['any', 'one_two', 'three_five', 'six_plus'] as const;
export const experienceSchema = z.enum(EXPERIENCE_KEYS);
export type Experience = z.infer<typeof experienceSchema>;

export const vacancyInputSchema = z.strictObject({
  name: requiredText(LIMITS.nameMax),
  /** Requirements and conditions. */
  requirements: optionalText(LIMITS.descriptionMax),
  /** Description of duties and skills. */
  description: optionalText(LIMITS.descriptionMax),
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
