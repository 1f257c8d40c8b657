/** The kinds of account; the account schemas build on these. */
export const ACCOUNT_TYPES = ['PARTNER', 'ADMIN', 'CLIENT'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

type Typed = { type: AccountType } | null | undefined;

/** Role checks on an account, without zod (the site's first screen imports these). */
export const isAdmin = (a: Typed): boolean => a?.type === 'ADMIN';
export const isPartner = (a: Typed): boolean => a?.type === 'PARTNER' || a?.type === 'CLIENT';
