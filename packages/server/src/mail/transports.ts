import path from 'node:path';
import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import { ensurePrivateDir, writePrivateFile } from '../lib/private-files.js';

/** What became of one delivery attempt. */
export type DeliveryOutcome =
  /** The server accepted the message (250 after the end of data). */
  | { kind: 'sent' }
  /** `commit()` answered false: another worker owns the row now; nothing was sent. */
  | { kind: 'abandoned' }
  /**
   * The server refused, or the connection failed. `permanent` for a 5xx answer. `committed` tells
   * whether `commit()` had already marked the row sent (the refusal came after the end of data).
   */
  | { kind: 'refused'; permanent: boolean; committed: boolean; error: string }
  /** The end of data was written but no answer came: the server may or may not have it. */
  | { kind: 'unconfirmed'; error: string };

export interface MailTransport {
  /**
   * Delivers one raw message. `commit` is called once the whole message except its end-of-data
   * mark is with the server; it records the mail as sent and answers false when the row was
   * taken over (then nothing is sent). Only after it the message is finished.
   */
  deliver(
    mail: { id: string; from: string; to: string; raw: Buffer; fileName: string },
    commit: () => Promise<boolean>,
  ): Promise<DeliveryOutcome>;
  close(): void;
}

const message = (error: unknown) =>
  error instanceof Error
    ? `${(error as { code?: string }).code ?? error.name}: ${error.message}`
    : String(error);

/**
 * SMTP over one kept-open connection (nodemailer's SMTPConnection). The message is streamed into
 * DATA, then `commit()` records it as sent, and only then the final "." is written. A crash before
 * the commit leaves an unfinished DATA, which SMTP servers discard; see docs/mail.md.
 */
export class SmtpTransport implements MailTransport {
  private connection: SMTPConnection | null = null;
  private readonly options: ReturnType<typeof parseConnectionUrl>;

  constructor(url: string) {
    this.options = parseConnectionUrl(url);
  }

  private async connect(): Promise<SMTPConnection> {
    if (this.connection) return this.connection;
    const { auth, ...options } = this.options;
    const conn = new SMTPConnection({
      ...options,
      connectionTimeout: 30_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    } as ConstructorParameters<typeof SMTPConnection>[0]);
    conn.on('error', () => {
      // Reported to the pending send; a broken connection is replaced on the next mail.
      if (this.connection === conn) this.connection = null;
    });
    conn.on('end', () => {
      if (this.connection === conn) this.connection = null;
    });
    await new Promise<void>((resolve, reject) => {
      conn.once('error', reject);
      conn.connect(() => {
        conn.removeListener('error', reject);
        resolve();
      });
    });
    if (auth && (auth as { user?: string }).user) {
      await new Promise<void>((resolve, reject) =>
        conn.login(auth as never, (err: unknown) => (err ? reject(err) : resolve())),
      );
    }
    this.connection = conn;
    return conn;
  }

  private drop(conn: SMTPConnection) {
    if (this.connection === conn) this.connection = null;
    conn.close();
  }

  async deliver(
    mail: { from: string; to: string; raw: Buffer },
    commit: () => Promise<boolean>,
  ): Promise<DeliveryOutcome> {
    let conn: SMTPConnection;
    try {
      conn = await this.connect();
    } catch (error) {
      return { kind: 'refused', permanent: false, committed: false, error: message(error) };
    }
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      let committed = false;
      let committing: Promise<unknown> | null = null;
      const done = (outcome: DeliveryOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      // read() is first called when nodemailer pipes the body into DATA, i.e. after 354.
      const body = new Readable({
        read() {
          if (committing) return;
          this.push(mail.raw);
          // While the commit runs (a database round trip), the body drains into the socket, so
          // once it returns only the end-of-data mark is left to write.
          committing = commit().then(
            (ok) => {
              if (!ok) {
                this.destroy();
                done({ kind: 'abandoned' });
                conn.close();
                return;
              }
              committed = true;
              this.push(null); // the end-of-data mark follows: the message is now complete
            },
            (error: unknown) => {
              this.destroy();
              done({ kind: 'refused', permanent: false, committed: false, error: message(error) });
              conn.close();
            },
          );
        },
      });
      conn.send({ from: mail.from, to: [mail.to] }, body, (err) => {
        if (!err) return done({ kind: 'sent' });
        const e = err as Error & { responseCode?: number };
        this.drop(conn);
        // A refusal in the middle of DATA may cross our commit: decide once the commit is known.
        void (committing ?? Promise.resolve()).then(() => {
          const code = e.responseCode;
          if (committed && code === undefined) {
            return done({ kind: 'unconfirmed', error: message(e) });
          }
          done({
            kind: 'refused',
            permanent: code !== undefined && code >= 500,
            committed,
            error: message(e),
          });
        });
      });
    });
  }

  close() {
    this.connection?.close();
    this.connection = null;
  }
}

/**
 * Development without SMTP: each mail becomes DATA_DIR/mail/<name>.eml. The file name is fixed per
 * outbox row and written by rename, so a retry after a crash replaces the same file. Mails hold
 * temporary passwords and login links: the folder is owner-only (0700) and each file 0600 from its
 * first byte, whatever the umask; `prepare()` (at start) fixes a folder and files an older version
 * left readable by others.
 */
export class FileTransport implements MailTransport {
  constructor(
    private readonly dir: string,
    private readonly onWritten: (file: string) => void,
  ) {}

  /** Creates the folder owner-only, or makes an existing one and the mail in it so. */
  prepare(): Promise<void> {
    return ensurePrivateDir(this.dir, { files: true });
  }

  async deliver(
    mail: { id: string; raw: Buffer; fileName: string },
    commit: () => Promise<boolean>,
  ): Promise<DeliveryOutcome> {
    try {
      await ensurePrivateDir(this.dir);
      const file = path.join(this.dir, mail.fileName);
      await writePrivateFile(file, mail.raw);
      if (!(await commit())) return { kind: 'abandoned' };
      this.onWritten(file);
      return { kind: 'sent' };
    } catch (error) {
      return { kind: 'refused', permanent: false, committed: false, error: message(error) };
    }
  }

  close() {}
}
