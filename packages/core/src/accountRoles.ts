import type { Account } from './schemas/account.js';

/** Role checks on an account, without zod (the site's first screen imports these). */
export const isAdmin = (a: Pick<Account, 'type'> | null | undefined): boolean =>
  a?.type === 'ADMIN';
export const isPartner = (a: Pick<Account, 'type'> | null | undefined): boolean =>
  a?.type === 'PARTNER' || a?.type === 'CLIENT';
