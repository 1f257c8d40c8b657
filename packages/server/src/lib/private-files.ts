import fs from 'node:fs/promises';
import path from 'node:path';

/** Folders under DATA_DIR that hold secrets: only their owner may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files that hold secrets (mail with temporary passwords, backups): only their owner reads them. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and its parents) and makes `dir` itself owner-only (0700), also when it already
 * existed with a wider mode. The mode is set by chmod, so the process's umask does not matter.
 * Files already in it are made 0600 when `files` is true (a folder written by an older version).
 */
export async function ensurePrivateDir(dir: string, { files = false } = {}): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.chmod(dir, PRIVATE_DIR_MODE);
  if (!files) return;
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) await fs.chmod(path.join(dir, entry.name), PRIVATE_FILE_MODE);
  }
}

/**
 * Creates an empty file readable by its owner only (0600, whatever the umask), replacing one left
 * behind, so that the bytes written into it afterwards (by this process or by a program such as
 * pg_dump, which keeps the mode of a file it truncates) are never readable by others.
 */
export async function createPrivateFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
  const handle = await fs.open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
  } finally {
    await handle.close();
  }
}

/**
 * Writes `data` to `file` owner-only (0600) from its first byte, through a temporary file beside
 * it and a rename, so a reader never sees half a file and a crash leaves no half file in its place.
 */
export async function writePrivateFile(file: string, data: Buffer | string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await createPrivateFile(tmp);
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}
