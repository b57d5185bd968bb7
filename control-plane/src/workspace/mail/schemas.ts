/**
 * @module workspace/mail/schemas
 * Wire shapes of the mailbox (`/client/v1/mailbox`, `/client/v1/me/mail-address`).
 */
import { z } from 'zod';

export const MailItem = z.object({
  id: z.string(),
  to: z.string().nullable().describe('null: no address was known, the mail is only here'),
  subject: z.string(),
  body: z.string(),
  status: z.enum(['queued', 'sent', 'stored', 'failed']).describe('stored: kept in the mailbox only (no SMTP configured, or no address)'),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
}).meta({ id: 'MailItem' });

export const MailPage = z.object({ items: z.array(MailItem), nextCursor: z.string().nullable() });
export const MailAddress = z.object({ address: z.string().nullable() });
export const MailAddressBody = z.strictObject({ address: z.email().max(254).nullable() });
