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
  const waiters: { to: string; resolve: (m: ParsedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const w of [...waiters]) {
            if (recipientOf(mail).includes(w.to)) {
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
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(to, timeoutMs = 10_000) {
      const found = messages.find((m) => recipientOf(m).includes(to.toLowerCase()));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to}`)), timeoutMs);
        waiters.push({
          to: to.toLowerCase(),
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    async waitForMail(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no matching mail');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
