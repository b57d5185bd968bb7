/**
 * @module workspace/mail/transport
 * Sending one mail over SMTP with nodemailer. Absent when `SMTP_URL` is not configured: mail then
 * stays in the mailbox the console shows.
 */
import { createTransport } from 'nodemailer';

export interface MailTransport {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

/**
 * @example
 * const transport = createSmtpTransport({ url: 'smtp://127.0.0.1:2525', from: 'Platform <platform@localhost>' });
 * await transport.send({ to: 'owner@example.com', subject: 'Deliveries paused', text: '…' });
 */
export function createSmtpTransport(options: { url: string; from: string; timeoutMs?: number }): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const smtp = createTransport({ url: options.url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
  return {
    async send(mail) {
      await smtp.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => smtp.close(),
  };
}
