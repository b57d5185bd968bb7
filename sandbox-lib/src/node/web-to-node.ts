/**
 * @module node/web-to-node
 * A Web `Response` written to a Node response: status, headers (each `set-cookie` kept apart),
 * and the body streamed with backpressure.
 */
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';

/**
 * Writes `response` to `res`.
 * @example await writeWebResponse(res, await app.fetch(request, env));
 */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) break;
    if (!res.write(chunk)) await once(res, 'drain');
  }
  res.end();
}
