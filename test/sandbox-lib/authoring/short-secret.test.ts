// An app whose PLATFORM_SIGNING_SECRET is shorter than 24 bytes (Standard Webhooks guidance), over
// real HTTP through the Node adapter: every delivery is answered 500 `signing-secret-too-short`
// with an error line saying so, even one signed with that very secret; 24 bytes serve as before.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_HEADERS, ENV_KEYS } from '@platform/sdk';
import { serve, type Served } from '../../../sandbox-lib/src/node/index.ts';
import { counterApp } from '../../fixtures/apps/counter.ts';
import { actionData, captureLogger, envelope } from './helpers.ts';

let server: Served | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const key = (bytes: number) => Buffer.from('s'.repeat(bytes));

/** A delivery signed by hand with `bytes` key bytes, as anyone holding that key could. */
async function deliver(url: string, bytes: number) {
  const body = JSON.stringify(envelope('block.action', actionData('increment')));
  const id = JSON.parse(body).id as string;
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `v1,${createHmac('sha256', key(bytes)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  const response = await fetch(`${url}/platform`, {
    method: 'POST', body,
    headers: { [DELIVERY_HEADERS.id]: id, [DELIVERY_HEADERS.timestamp]: String(timestamp), [DELIVERY_HEADERS.signature]: signature, [DELIVERY_HEADERS.deliveryClass]: 'interactive', [DELIVERY_HEADERS.install]: 'ins_1', 'content-type': 'application/json' },
  });
  return { status: response.status, body: await response.json() as any };
}

describe('a signing secret shorter than 24 bytes', () => {
  it.each([1, 23])('%i bytes: refused as the app\'s misconfiguration, told in its log', async (bytes) => {
    const log = captureLogger();
    const env = { [ENV_KEYS.signingSecret]: `whsec_${key(bytes).toString('base64')}`, COUNTER_TOKEN: 'token' };
    server = await serve(counterApp({ logger: log }), { port: 0, env, logger: log });
    const answer = await deliver(server.url, bytes);
    expect(answer).toEqual({ status: 500, body: { error: 'signing-secret-too-short', message: expect.stringContaining(`is ${bytes} bytes; it must be at least 24`) } });
    expect(log.entries).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringContaining(`${ENV_KEYS.signingSecret}: The signing secret is ${bytes} bytes`) }));
  });

  it('24 bytes serve the delivery', async () => {
    const log = captureLogger();
    const env = { [ENV_KEYS.signingSecret]: `whsec_${key(24).toString('base64')}`, COUNTER_TOKEN: 'token' };
    server = await serve(counterApp({ logger: log }), { port: 0, env, logger: log });
    const answer = await deliver(server.url, 24);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.state).toEqual({ count: 3, step: 1 });
  });
});
