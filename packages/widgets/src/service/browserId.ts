/** localStorage key of this browser's random id for "I have used this service". */
export const BROWSER_ID_KEY = 'poruch:browser-id';
/** localStorage key of the services this browser has marked as used (a JSON array of ids). */
export const USED_KEY = 'poruch:used';

/** The page's localStorage, or null when there is none or it is blocked (Safari private mode, sandboxed frames). */
function storage(): Storage | null {
  try {
    const s = globalThis.localStorage;
    if (!s) return null;
    const probe = 'poruch:probe';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return null;
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
  const s = storage();
  const stored = s?.getItem(BROWSER_ID_KEY);
  if (stored && /^[A-Za-z0-9_-]{16,64}$/.test(stored)) return stored;
  const id = memoryId ?? randomId();
  memoryId = id;
  s?.setItem(BROWSER_ID_KEY, id);
  return id;
}

/** True when this browser has marked the service as used. */
export function hasMarkedUsed(serviceId: string): boolean {
  try {
    const list = JSON.parse(storage()?.getItem(USED_KEY) ?? '[]') as unknown;
    return Array.isArray(list) && list.includes(serviceId);
  } catch {
    return false;
  }
}

/** Remembers that this browser marked the service (at most the last 500). */
export function rememberMarkedUsed(serviceId: string): void {
  const s = storage();
  if (!s) return;
  let list: string[] = [];
  try {
    const parsed = JSON.parse(s.getItem(USED_KEY) ?? '[]') as unknown;
    if (Array.isArray(parsed)) list = parsed.filter((v): v is string => typeof v === 'string');
  } catch {
    // A broken value is replaced.
  }
  if (!list.includes(serviceId)) list.push(serviceId);
  s.setItem(USED_KEY, JSON.stringify(list.slice(-500)));
}
