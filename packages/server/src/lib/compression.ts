import zlib from 'node:zlib';

/** Content types worth compressing: JSON, XML and text (not event streams). */
export const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?(?:json|xml)(?:;|$))/;

/**
 * @fastify/compress settings: JSON, XML and text answers of 1 KB and more, brotli else gzip by
 * Accept-Encoding. `fast` is for the open-data files (tens of MB, compressed as they stream on
 * the server's one thread): brotli quality 1 and gzip level 1 take a fraction of the time of
 * quality 4 and level 6, for files a few per cent larger.
 */
export function compressOptions(speed: 'default' | 'fast' = 'default') {
  return {
    threshold: 1024,
    encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: speed === 'fast' ? 1 : 4 } },
    ...(speed === 'fast' ? { zlibOptions: { level: 1 } } : {}),
  };
}
