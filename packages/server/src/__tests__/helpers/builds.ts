import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** Writes `file` with its .br and .gz copies, as the site and widgets builds do. */
export async function writeCompressed(file: string, body: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, body);
  await fs.writeFile(`${file}.br`, brotliCompressSync(Buffer.from(body)));
  await fs.writeFile(`${file}.gz`, gzipSync(Buffer.from(body)));
}

/**
 * A widgets script-tag build in `dir` as packages/widgets writes it (scripts/manifest.mjs,
 * compress.mjs): `files` (name → body) with their precompressed copies and a manifest.json with
 * their SRI hashes, for widgetsPlugin's `dir` (or startTestServer's `widgetsDir`).
 */
export async function writeWidgetsBuild(
  dir: string,
  { version, major, files }: { version: string; major: string; files: Record<string, string> },
): Promise<void> {
  const sri = (s: string) => `sha384-${createHash('sha384').update(s).digest('base64')}`;
  const manifest: Record<string, { bytes: number; integrity: string }> = {};
  for (const [name, body] of Object.entries(files)) {
    await writeCompressed(path.join(dir, name), body);
    manifest[name] = { bytes: body.length, integrity: sri(body) };
  }
  await fs.writeFile(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ name: '@poruch/widgets', version, major, files: manifest }),
  );
}
