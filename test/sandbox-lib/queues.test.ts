// Queues in the SDK: defineQueue's manifest entry and its bounds, `ctx.queue.send`/`sendBatch`
// from a handler (the request `/v0/queue/messages` receives, with the install token), and a
// signed `queue.message` delivery running the queue handler through app.fetch.
import { describe, expect, it } from 'vitest';
import { AppManifestInvalidError, defineApp, defineQueue, LIMITS, signDelivery, type QueueMessage } from '@platform/sdk';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW = Date.UTC(2026, 0, 1);

describe('defineQueue', () => {
  it('adds queue: { maxAttempts } (default 5) and refuses attempts out of 1 to 20', () => {
    const base = { name: 'Remind', slug: 'remind', hosting: 'platform' as const };
    expect(defineApp({ ...base, queue: defineQueue({ handler: () => undefined }) }).manifest.queue).toEqual({ maxAttempts: LIMITS.queues.maxAttemptsDefault });
    expect(defineApp({ ...base, queue: defineQueue({ maxAttempts: 20, handler: () => undefined }) }).manifest.queue).toEqual({ maxAttempts: 20 });
    expect(() => defineApp({ ...base, queue: defineQueue({ maxAttempts: 21, handler: () => undefined }) })).toThrow(AppManifestInvalidError);
    expect(() => defineApp({ ...base, queue: defineQueue({ maxAttempts: 0, handler: () => undefined }) })).toThrow(AppManifestInvalidError);
    expect('queue' in defineApp(base).manifest).toBe(false);
  });
});

describe('queue deliveries and ctx.queue', () => {
  const calls: Array<{ url: string; authorization: string | null; body: unknown }> = [];
  const handled: QueueMessage[] = [];
  const fakeV0: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = await request.json() as { messages: unknown[] };
    calls.push({ url: request.url, authorization: request.headers.get('authorization'), body });
    return Response.json({ messages: body.messages.map((_, i) => ({ id: `evt_${i}`, deduplicated: false, deliverAt: new Date(NOW).toISOString() })) });
  };
  const app = defineApp({
    name: 'Remind', slug: 'remind', hosting: 'self', endpoint: 'https://remind.example.com/platform',
    queue: defineQueue<{ step: number }>({
      handler: async ({ message, queue }) => {
        handled.push(message);
        if (message.body.step === 1) await queue.send({ step: 2 }, { delaySeconds: 60, key: 'step-2' });
        if (message.body.step === 2) await queue.sendBatch([{ body: { step: 3 } }, { body: { step: 4 }, delaySeconds: 1 }]);
        if (message.body.step === 9) throw new Error('fails');
      },
    }),
  }, { now: () => NOW, fetch: fakeV0 });

  async function deliver(id: string, body: unknown): Promise<number> {
    const at = new Date(NOW).toISOString();
    const json = JSON.stringify({
      id, type: 'queue.message', timestamp: at, app: { id: 'app_1', slug: 'remind', version: 1 },
      install: { id: 'ins_1', workspaceId: 'ws_1', kind: 'workspace' }, installToken: { token: 'platapp_test', expiresAt: new Date(NOW + 3_600_000).toISOString() },
      locale: 'en', timeZone: 'UTC', data: { message: { id, body, key: null, sentAt: at, deliverAt: at } },
    });
    const timestamp = Math.floor(NOW / 1000);
    const signature = await signDelivery({ id, timestamp, body: json, secret: SECRET });
    const res = await app.fetch(new Request('https://remind.example.com/platform', {
      method: 'POST', body: json,
      headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature, 'content-type': 'application/json', 'platform-delivery': 'lifecycle' },
    }), { PLATFORM_SIGNING_SECRET: SECRET, PLATFORM_API_URL: 'https://platform.example.com' });
    return res.status;
  }

  it('runs the handler, whose sends reach /v0/queue/messages with the install token', async () => {
    expect(await deliver('evt_a', { step: 1 })).toBe(204);
    expect(await deliver('evt_b', { step: 2 })).toBe(204);
    expect(handled.map((m) => m.body)).toEqual([{ step: 1 }, { step: 2 }]);
    expect(calls).toEqual([
      { url: 'https://platform.example.com/v0/queue/messages', authorization: 'Bearer platapp_test', body: { messages: [{ body: { step: 2 }, delaySeconds: 60, key: 'step-2' }] } },
      { url: 'https://platform.example.com/v0/queue/messages', authorization: 'Bearer platapp_test', body: { messages: [{ body: { step: 3 } }, { body: { step: 4 }, delaySeconds: 1 }] } },
    ]);
  });

  it('answers 500 when the handler throws (the service retries), 400 for data that is not a message', async () => {
    expect(await deliver('evt_c', { step: 9 })).toBe(500);
    const id = 'evt_d';
    const at = new Date(NOW).toISOString();
    const json = JSON.stringify({
      id, type: 'queue.message', timestamp: at, app: { id: 'app_1', slug: 'remind', version: 1 }, install: { id: 'ins_1', workspaceId: 'ws_1', kind: 'workspace' },
      locale: 'en', timeZone: 'UTC', data: { message: { id, body: 1 } },
    });
    const timestamp = Math.floor(NOW / 1000);
    const signature = await signDelivery({ id, timestamp, body: json, secret: SECRET });
    const res = await app.fetch(new Request('https://remind.example.com/platform', {
      method: 'POST', body: json, headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature, 'platform-delivery': 'lifecycle' },
    }), { PLATFORM_SIGNING_SECRET: SECRET });
    expect(res.status).toBe(400);
  });
});
