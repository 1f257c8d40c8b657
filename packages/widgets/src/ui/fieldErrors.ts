import type { FieldError } from '@poruch/core';
import { translateFieldError, type Translate } from '@poruch/core/lite';

/** The translated messages of one field's broken rules (`field` is the dotted path). */
export const messagesFor = (t: Translate, errors: readonly FieldError[], field: string): string[] =>
  errors.filter((e) => e.field === field).map((e) => translateFieldError(t, e));
