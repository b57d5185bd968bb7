/**
 * @module seed/console-link
 * The console URL `npm start` prints: a sign-in link that works once. It carries a fresh API key of
 * the owner's, named for the purpose, in the URL's fragment (never sent to a server, never in a
 * Referer or an access log); the console's sign-in page posts it, mints a session key of its own
 * and revokes the link's key. A link that was not opened stays valid until the owner revokes it
 * (`DELETE /client/v1/api-keys/{id}`); each start prints a new one.
 */
import { SIGN_IN_LINK_KEY_NAME } from '../console/pages/sign-in.ts';

type RequestFn = (path: string, init: RequestInit) => Promise<Response>;

/**
 * @example
 * const url = await consoleSignInLink({ request, ownerKey, publicUrl, next: '/console/conversations/cnv_1' });
 */
export async function consoleSignInLink(deps: { request: RequestFn; ownerKey: string; publicUrl: string; next: string }): Promise<string> {
  const res = await deps.request('/client/v1/api-keys', {
    method: 'POST', headers: { authorization: `Bearer ${deps.ownerKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: SIGN_IN_LINK_KEY_NAME }),
  });
  if (res.status !== 201) throw new Error(`Minting the console sign-in link answered ${res.status}`);
  const { apiKey } = await res.json() as { apiKey: string };
  const fragment = new URLSearchParams({ key: apiKey, next: deps.next });
  return `${deps.publicUrl.replace(/\/$/, '')}/console/sign-in#${fragment}`;
}
