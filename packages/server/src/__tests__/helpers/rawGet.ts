import http from 'node:http';

/** An answer as it came over the wire: the body bytes still encoded as the server chose. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A GET over plain node:http, not fetch: fetch would decode the body and hide which encoding the
 * server chose. Also used by the site's e2e suite against the built server.
 *
 * @param path sent as written instead of the URL's path (a URL turns `\` into `/` and drops
 *   tabs); `url` then gives only the host. Defaults to the URL's path.
 */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
  path?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, ...(path !== undefined && { path }) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
