/**
 * `startSmtpServer()`: a real SMTP server on loopback (smtp-server), as a mail relay would run
 * one. It accepts every message without authentication or TLS and records the envelope and the
 * raw message; `waitFor` resolves once a condition on the received mail holds.
 *
 *   const smtp = await startSmtpServer();
 *   // SMTP_URL = smtp.url
 *   await smtp.waitFor((mail) => mail.length === 1);
 *   await smtp.stop();
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpServerHandle {
  url: string;
  mail: ReceivedMail[];
  waitFor(condition: (mail: ReceivedMail[]) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startSmtpServer(): Promise<SmtpServerHandle> {
  const mail: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        mail.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        for (const check of [...waiters]) check();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mail,
    waitFor(condition, timeoutMs = 20_000) {
      if (condition(mail)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!condition(mail)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`smtp: condition not met after ${mail.length} messages`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
