import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// OWASP's scrypt minimum: N=2^17, r=8, p=1 (128 MiB). maxmem must allow 128*N*r bytes.
const PARAMS = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

/**
 * Every scrypt run of this process and their summed cost (N·r·p each), for tests that check that
 * two paths do the same hashing work (login must not tell who has an account by its time).
 */
export const scryptWork = { runs: 0, cost: 0 };

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  scryptWork.runs++;
  scryptWork.cost += (opts.N ?? 0) * (opts.r ?? 0) * (opts.p ?? 0);
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, opts, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Hashes a password with scrypt. The result carries its parameters, so they can grow later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A stored-hash-shaped string with the current parameters and a random key: verifying against it
 * costs exactly what verifying against a real hash costs, and never matches (a 256-bit key nobody
 * derived). Used where a real hash is missing, so the time tells nothing.
 */
const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${randomBytes(16).toString('base64')}$${randomBytes(KEY_LENGTH).toString('base64')}`;

/**
 * Compares in constant time; always exactly one scrypt run. A malformed hash never matches (it is
 * compared against the dummy hash instead, at the same cost).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) {
    await verifyPassword(password, DUMMY_HASH);
    return false;
  }
  const expected = Buffer.from(key, 'base64');
  const N = Number(n);
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * N * Number(r) + 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The password fields of an account, as a login checks them. */
export interface LoginHashes {
  passwordHash: string;
  tempPasswordHash: string | null;
  tempPasswordExpiresAt: Date | null;
}

/**
 * Checks a login: which password of the account `password` is, if any. Always the same work,
 * whatever the case (no account, no pending reset, an expired one, a right or wrong password):
 * exactly two scrypt runs at the current cost, side by side, one against the password and one
 * against the temporary password, each replaced by the dummy hash when missing. The result is
 * decided only after both, so the time does not tell whether an address has an account or a reset.
 */
export async function verifyLogin(
  password: string,
  account: LoginHashes | null,
  now = new Date(),
): Promise<'password' | 'temporary' | null> {
  const [main, temporary] = await Promise.all([
    verifyPassword(password, account?.passwordHash ?? DUMMY_HASH),
    verifyPassword(password, account?.tempPasswordHash ?? DUMMY_HASH),
  ]);
  if (!account) return null;
  if (main) return 'password';
  const pending = account.tempPasswordExpiresAt !== null && account.tempPasswordExpiresAt > now;
  return temporary && pending ? 'temporary' : null;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A readable random password (no 0/O/1/l), for resets and new administrators. */
export function generatePassword(length = 16): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const b of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (b < 256 - (256 % ALPHABET.length)) out += ALPHABET[b % ALPHABET.length];
    if (out.length === length) break;
  }
  return out.length === length ? out : generatePassword(length);
}
