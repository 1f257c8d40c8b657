/** What a test request answered: status, headers and parsed JSON (or text). */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  /** Send the anti-forgery header. Defaults to true on state-changing methods. */
  csrf?: boolean;
  /** A raw body sent as is (malformed JSON, oversized bodies). */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * A browser-like HTTP client over fetch: it keeps cookies and copies XSRF-TOKEN into the
 * x-xsrf-token header of state-changing requests, as the site's API client does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Raw Set-Cookie headers of the last response. */
  lastSetCookie: string[] = [];

  constructor(readonly baseUrl: string) {}

  /** Fetches auth/check, which hands out the anti-forgery cookie. */
  async init() {
    return this.get('/api/v1/auth/check');
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, body, options);
  }
  delete<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('DELETE', path, body, options);
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const changing = method !== 'GET' && method !== 'HEAD';
    if (changing && options.csrf !== false && this.cookies.has('XSRF-TOKEN')) {
      headers['x-xsrf-token'] = decodeURIComponent(this.cookies.get('XSRF-TOKEN')!);
    }
    let payload: string | undefined = options.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !headers['content-type'])
      headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body: payload,
      redirect: 'manual',
    });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  /** The Set-Cookie line of one cookie in the last response. */
  setCookieLine(name: string): string | undefined {
    return this.lastSetCookie.find((l) => l.startsWith(`${name}=`));
  }
}
