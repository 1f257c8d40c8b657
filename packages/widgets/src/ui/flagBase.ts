/** Where the site serves the flag SVGs (flag-icons' `flags/4x3`), under the API's site root. */
export const flagBase = (siteBase: string): string => `${siteBase.replace(/\/+$/, '')}/flags/4x3`;
