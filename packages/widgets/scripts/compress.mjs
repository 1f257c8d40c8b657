// Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every file of the
// script-tag build (dist/cdn), after scripts/manifest.mjs has hashed the originals. The server
// (packages/server/src/plugins/widgets.ts) sends the copy the browser accepts, so no request
// pays for compression at run time. The copies are not in manifest.json: its sizes and SRI
// hashes are of the files the browser ends up with (SRI checks the decoded body).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const dir = new URL('../dist/cdn/', import.meta.url).pathname;
const walk = (d) =>
  readdirSync(d).flatMap((f) =>
    statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)],
  );

let raw = 0;
let br = 0;
let count = 0;
for (const file of walk(dir)) {
  if (/\.(br|gz)$/.test(file)) continue;
  const body = readFileSync(file);
  const brotli = brotliCompressSync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 11,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
  writeFileSync(`${file}.br`, brotli);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  raw += body.length;
  br += brotli.length;
  count += 1;
}
console.log(
  `[poruch] widgets: ${count} files in ${relative(process.cwd(), dir) || '.'} precompressed, ` +
    `${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli`,
);
