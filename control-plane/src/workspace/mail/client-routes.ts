/**
 * @module workspace/mail/client-routes
 * The mailbox in the client API: the mail the service wrote to you (for example that an app's
 * deliveries were paused), and the address it is sent to.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery, decodeCursor, encodeCursor } from '../../core/http/common.ts';
import { MailAddress, MailAddressBody, MailPage } from './schemas.ts';
import type { MailService } from './service.ts';

export function registerMailClientRoutes(api: ClientApi, mail: MailService): void {
  api.route({
    operationId: 'listMailbox', method: 'get', path: '/mailbox', tag: 'mail', auth: 'member',
    summary: 'Mail the service wrote to you, newest first', query: PageQuery, status: 200, response: MailPage,
  }, async ({ auth, query }) => {
    const page = await mail.mailbox(auth.memberId, { limit: query.limit, before: decodeCursor(query.cursor) });
    return { items: page.items, nextCursor: page.last === null ? null : encodeCursor({ at: page.last.created_at, id: page.last.id }) };
  });

  api.route({
    operationId: 'getMailAddress', method: 'get', path: '/me/mail-address', tag: 'mail', auth: 'member',
    summary: 'Where the service e-mails you (null: mail stays in your mailbox)', status: 200, response: MailAddress,
  }, async ({ auth }) => ({ address: await mail.address(auth.memberId) }));

  api.route({
    operationId: 'setMailAddress', method: 'put', path: '/me/mail-address', tag: 'mail', auth: 'member',
    summary: 'Set (or clear, with null) where the service e-mails you', body: MailAddressBody, status: 200, response: MailAddress,
  }, async ({ auth, body }) => {
    await mail.setAddress(auth.memberId, body.address);
    return { address: body.address };
  });
}
