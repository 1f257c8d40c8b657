import { createHash, randomBytes } from 'node:crypto';

/** A 256-bit opaque token, URL-safe. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** What is stored for a token: its SHA-256, so a database leak gives no usable sessions. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
