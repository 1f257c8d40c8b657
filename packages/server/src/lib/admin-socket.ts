/**
 * Creating administrators, directly or through the running server.
 *
 * The embedded database (PGlite) is one process's: while the server runs, `pnpm admin:create`
 * must not open DATA_DIR. The server therefore listens on a unix socket,
 * `<DATA_DIR>/run/admin.sock`, inside a folder only its user may enter (0700, the socket itself
 * 0600), and creates the administrator for the command. Nothing on the network reaches it; who
 * can connect could open DATA_DIR anyway. docs/operations.md § Administrators.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { emailSchema } from '@poruch/core';
import type { Db } from '../db/index.js';
import type { SnapshotResult } from '../db/snapshots.js';
import { accounts } from '../db/schema.js';
import { accountsRepository } from '../repositories/accounts.js';
import { generatePassword, hashPassword } from './passwords.js';

/** The administrator socket of a DATA_DIR. */
export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'run', 'admin.sock');

/** What creating an administrator gave. */
export type CreateAdminResult =
  | { ok: true; email: string; isSuper: boolean; password: string }
  | { ok: false; error: 'exists' | 'invalid'; message: string };

/** Creates an administrator with a generated password (returned once), unless the e-mail exists. */
export async function createAdministrator(
  db: Db,
  input: { email: unknown; isSuper?: unknown },
): Promise<CreateAdminResult> {
  const email = emailSchema.safeParse(input.email ?? '');
  if (!email.success || (input.isSuper !== undefined && typeof input.isSuper !== 'boolean')) {
    return { ok: false, error: 'invalid', message: 'A valid e-mail address is needed.' };
  }
  const isSuper = input.isSuper === true;
  if (await accountsRepository(db).findByEmail(email.data)) {
    return {
      ok: false,
      error: 'exists',
      message: `An account with the e-mail ${email.data} already exists.`,
    };
  }
  const password = generatePassword(20);
  await db.insert(accounts).values({
    email: email.data,
    passwordHash: await hashPassword(password),
    type: 'ADMIN',
    isSuper,
    firstName: 'Admin',
  });
  return { ok: true, email: email.data, isSuper, password };
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What asking for a snapshot gave. */
export type SnapshotAnswer =
  | { ok: true; file: string; bytes: number; counts: SnapshotResult['counts'] }
  | { ok: false; error: 'failed' | 'unavailable'; message: string };

/** Longest request line the socket reads. */
const MAX_REQUEST = 4096;

/**
 * Listens on `<DATA_DIR>/run/admin.sock` for `{"command":"create-admin","email":…,"super":…}`
 * or `{"command":"snapshot"}` (`pnpm backup`: a fresh snapshot, db/snapshots.ts) as one JSON
 * line, and answers one JSON line. Call only while holding the DATA_DIR lock: a socket file left
 * by a killed server is then stale and replaced. Resolves to the closer, or null when the path is
 * too long for a unix socket (the command then asks to stop the server).
 */
export async function listenAdminSocket(
  dataDir: string,
  db: Db,
  log: Logger,
  snapshot?: () => Promise<SnapshotResult>,
): Promise<(() => Promise<void>) | null> {
  const file = adminSocketPath(dataDir);
  // sun_path holds 108 bytes on Linux (104 on macOS).
  if (Buffer.byteLength(file) > 103) {
    log.warn(
      { path: file },
      'admin socket path too long; pnpm admin:create needs the server stopped',
    );
    return null;
  }
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  fs.rmSync(file, { force: true });
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    const answer = (result: CreateAdminResult | SnapshotAnswer) =>
      socket.end(`${JSON.stringify(result)}\n`);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST) {
        answer({ ok: false, error: 'invalid', message: 'Request too long.' });
        return;
      }
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      socket.pause();
      let request: { command?: unknown; email?: unknown; super?: unknown };
      try {
        request = JSON.parse(buffer.slice(0, newline)) as typeof request;
      } catch {
        answer({ ok: false, error: 'invalid', message: 'Not a JSON request.' });
        return;
      }
      if (request?.command === 'snapshot') {
        // A snapshot of a large database takes a while: no idle timeout meanwhile.
        socket.setTimeout(0);
        if (!snapshot) {
          answer({
            ok: false,
            error: 'unavailable',
            message: 'This server takes no snapshots (not the embedded database on disk).',
          });
          return;
        }
        snapshot().then(
          (r) => answer({ ok: true, file: r.file, bytes: r.bytes, counts: r.counts }),
          (err: unknown) =>
            answer({
              ok: false,
              error: 'failed',
              message: `The server's snapshot failed: ${(err as Error).message}`,
            }),
        );
        return;
      }
      if (request?.command !== 'create-admin') {
        answer({ ok: false, error: 'invalid', message: 'Unknown command.' });
        return;
      }
      createAdministrator(db, { email: request.email, isSuper: request.super }).then(
        (result) => {
          if (result.ok) {
            log.info(
              { email: result.email, super: result.isSuper },
              'administrator created through the admin socket',
            );
          }
          answer(result);
        },
        (err: unknown) => {
          log.warn({ err }, 'admin socket: creating the administrator failed');
          socket.end(
            `${JSON.stringify({ ok: false, error: 'failed', message: 'It failed: see the server log.' })}\n`,
          );
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  fs.chmodSync(file, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(file, { force: true });
    });
}

/** Thrown when the running server's socket cannot be reached. */
export class AdminSocketError extends Error {
  override readonly name = 'AdminSocketError';
}

/** Sends one request to the server holding DATA_DIR and resolves to its one-line answer. */
function askServer<T>(dataDir: string, request: object, timeoutMs: number): Promise<T> {
  const file = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = net.connect(file);
    let data = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new AdminSocketError(`The server did not answer on ${file}.`)),
    );
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error instanceof AdminSocketError
          ? error
          : new AdminSocketError(
              `Cannot reach the server's socket ${file} (${error.code ?? error.message}).`,
            ),
      ),
    );
    socket.on('end', () => {
      try {
        resolve(JSON.parse(data) as T);
      } catch {
        reject(new AdminSocketError(`The server gave no answer on ${file}.`));
      }
    });
  });
}

/** Asks the server holding DATA_DIR to create an administrator. */
export function requestAdministrator(
  dataDir: string,
  email: string,
  isSuper: boolean,
): Promise<CreateAdminResult | { ok: false; error: 'failed'; message: string }> {
  return askServer(dataDir, { command: 'create-admin', email, super: isSuper }, 30_000);
}

/** Asks the server holding DATA_DIR for a fresh, verified snapshot (`pnpm backup`). */
export function requestSnapshot(dataDir: string): Promise<SnapshotAnswer> {
  // The answer comes when the snapshot is written and verified: minutes for a large catalogue.
  return askServer(dataDir, { command: 'snapshot' }, 60 * 60_000);
}
