import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  url: string;
  messages: ParsedMail[];
  /** Resolves with the first mail to `to` that arrives (or has arrived). */
  waitFor(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /**
   * Resolves with the first mail that matches (arrived or arriving). Mail goes through the outbox,
   * so it arrives after the answer of the request that caused it.
   */
  waitForMail(match: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

const recipientOf = (m: ParsedMail) =>
  [m.to].flat().flatMap((a) => (a ? a.value.map((v) => v.address?.toLowerCase()) : []));

/** A real SMTP server on loopback (smtp-server) that parses what it receives (mailparser). */
export async function startSmtp(): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const waiters: { match: (m: ParsedMail) => boolean; resolve: (m: ParsedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const w of [...waiters]) {
            if (w.match(mail)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(mail);
            }
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  /** The first mail that matches, of those arrived or at its arrival. */
  const waitForMail = (match: (m: ParsedMail) => boolean, timeoutMs: number, what: string) => {
    const found = messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise<ParsedMail>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (m: ParsedMail) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(what));
      }, timeoutMs);
      waiters.push(waiter);
    });
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor: (to, timeoutMs = 10_000) =>
      waitForMail((m) => recipientOf(m).includes(to.toLowerCase()), timeoutMs, `no mail to ${to}`),
    waitForMail: (match, timeoutMs = 10_000) => waitForMail(match, timeoutMs, 'no matching mail'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
