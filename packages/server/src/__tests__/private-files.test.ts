import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase } from '../db/backup.js';
import { openDatabase } from '../db/index.js';
import { waitUntil } from '../mail/__tests__/helpers.js';
import { partner } from './helpers/actors.js';
import { startTestServer } from './helpers/server.js';

/** The permission bits of a file or folder. */
const modeOf = async (file: string) => (await fs.stat(file)).mode & 0o777;
const octal = (mode: number) => mode.toString(8).padStart(4, '0');

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Runs the test's body under `umask` (every test runs under both: the modes must not depend on it). */
function withUmask(umask: number) {
  const previous = process.umask(umask);
  cleanups.push(async () => process.umask(previous));
}

async function tempDir() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-modes-'));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

describe.each([0o022, 0o000])('files that hold secrets, under umask %o', (umask) => {
  it('mail files (no SMTP_URL) are 0600 in a 0700 DATA_DIR/mail, an older folder fixed at start', async () => {
    withUmask(umask);
    const dataDir = await tempDir();
    // What an older version left: a world-readable folder with a world-readable mail in it.
    const mailDir = path.join(dataDir, 'mail');
    await fs.mkdir(mailDir);
    await fs.chmod(mailDir, 0o755);
    const old = path.join(mailDir, 'old-reset.eml');
    await fs.writeFile(old, 'Subject: your temporary password');
    await fs.chmod(old, 0o644);

    const server = await startTestServer({ DATA_DIR: dataDir, MAIL_POLL_MS: '50' });
    cleanups.push(() => server.close());
    expect(octal(await modeOf(mailDir))).toBe('0700');
    expect(octal(await modeOf(old))).toBe('0600');

    // A registration queues a mail (its welcome and the notice to administrators); a reset
    // queues one with a temporary password.
    const { client, body } = await partner(server);
    const reset = await client.post('/api/v1/auth/reset-password', { email: body.account.email });
    expect(reset.status).toBe(200);
    const written = await waitUntil(
      async () => {
        const names = (await fs.readdir(mailDir)).filter((n) => n !== 'old-reset.eml');
        return names.length >= 1 ? names : null;
      },
      15_000,
      'a mail file',
    );
    for (const name of written) {
      expect(name, 'no temporary file is left behind').toMatch(/\.eml$/);
      expect(`${name} ${octal(await modeOf(path.join(mailDir, name)))}`).toBe(`${name} 0600`);
    }
    expect(octal(await modeOf(mailDir))).toBe('0700');
  });
  it('the embedded database folder is 0700, also one an older version left 0755; backups and the replaced folder are owner-only', async () => {
    withUmask(umask);
    const dataDir = await tempDir();
    const dbDir = path.join(dataDir, 'db');
    const first = await openDatabase({ dataDir: dbDir });
    await first.close();
    expect(octal(await modeOf(dbDir))).toBe('0700');

    // What an older version left: the folder readable by everyone.
    await fs.chmod(dbDir, 0o755);
    const again = await openDatabase({ dataDir: dbDir });
    expect(octal(await modeOf(dbDir))).toBe('0700');
    await again.close();

    const backup = path.join(dataDir, 'backups', 'poruch.pglite.tar.gz');
    await backupDatabase({ dataDir: dbDir }, backup);
    expect(octal(await modeOf(backup))).toBe('0600');

    // A restore over an older, world-readable folder keeps that folder aside, owner-only.
    await fs.chmod(dbDir, 0o755);
    const { previous } = await restoreDatabase({ dataDir: dbDir }, backup, { force: true });
    expect(previous).toBeDefined();
    expect(octal(await modeOf(previous!))).toBe('0700');
    expect(octal(await modeOf(dbDir))).toBe('0700');
  });
});
