/**
 * What `<poruch-service>` keeps in the page's localStorage, both written only when the visitor
 * presses "I have used this service" (docs/embedding.md, "What the widgets store"):
 * - `poruch:browser-id`: this browser's random id, sent with the mark so the server counts it
 *   once per browser;
 * - `poruch:used`: the services this browser has marked (a JSON array of ids, at most 500), so
 *   the button shows "marked" on the next visit.
 */
export const BROWSER_ID_KEY = 'poruch:browser-id';
export const USED_KEY = 'poruch:used';

/**
 * The page's localStorage, or null when there is none or it is blocked (Safari private mode,
 * sandboxed frames, storage disabled): reading the property throws then.
 */
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Reads a key; null when storage is missing or refuses. */
function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Writes a key; nothing when storage is missing or refuses (blocked, full). */
function write(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // The value lives for the page only.
  }
}

let memoryId: string | undefined;

const randomId = (): string => {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(
    bytes,
    (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[b & 63],
  ).join('');
};

/**
 * This browser's random id (32 URL-safe characters), kept in localStorage so a service is
 * marked once per browser. Without localStorage it lives for the page only.
 */
export function getBrowserId(): string {
  const stored = read(BROWSER_ID_KEY);
  if (stored && /^[A-Za-z0-9_-]{16,64}$/.test(stored)) return stored;
  const id = memoryId ?? randomId();
  memoryId = id;
  write(BROWSER_ID_KEY, id);
  return id;
}

/** True when this browser has marked the service as used. */
export function hasMarkedUsed(serviceId: string): boolean {
  try {
    const list = JSON.parse(read(USED_KEY) ?? '[]') as unknown;
    return Array.isArray(list) && list.includes(serviceId);
  } catch {
    return false;
  }
}

/** Remembers that this browser marked the service (at most the last 500). */
export function rememberMarkedUsed(serviceId: string): void {
  let list: string[] = [];
  try {
    const parsed = JSON.parse(read(USED_KEY) ?? '[]') as unknown;
    if (Array.isArray(parsed)) list = parsed.filter((v): v is string => typeof v === 'string');
  } catch {
    // A broken value is replaced.
  }
  if (!list.includes(serviceId)) list.push(serviceId);
  write(USED_KEY, JSON.stringify(list.slice(-500)));
}
