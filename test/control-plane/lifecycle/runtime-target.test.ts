/**
 * What the runtime target sends a runtime node for a hosted delivery (deliveries/targets/runtime.ts):
 * the version's bundle, target and outbound hosts (read once per version: version rows never
 * change; a version not found yet is read again), the environment of every delivery, and the
 * delivery signed: the envelope without its install token, signed with every live secret, the
 * token apart. No signing secret is sent.
 */
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, verifyDelivery } from '@platform/sdk';
import { deliveryHeadersSync } from '@platform/sdk/node';
import type { Db } from '@platform/control-plane';
import { createRuntimeTarget } from '../../../control-plane/src/deliveries/targets/runtime.ts';
import type { OutgoingDelivery } from '../../../control-plane/src/deliveries/targets/target.ts';
import type { RuntimeDeliveryRequest } from '@platform/runtime';
import { createStaticDirectory } from '../../../control-plane/src/core/runtime-node/directory.ts';
import { createPlacement } from '../../../control-plane/src/core/runtime-node/placement.ts';

const NEW = generateSigningSecret();
const OLD = generateSigningSecret();

function world(options: { hang?: boolean } = {}) {
  const versions = new Map<string, Record<string, unknown>>();
  let reads = 0;
  const db = {
    async query(sql: string, params?: unknown[]) {
      if (!sql.includes('from app_versions')) throw new Error(`unexpected SQL: ${sql}`);
      reads++;
      const row = versions.get(`${params![0]}@${params![1]}`);
      return { rows: row === undefined ? [] : [row], rowCount: row === undefined ? 0 : 1 };
    },
  } as unknown as Db;
  const sent: RuntimeDeliveryRequest[] = [];
  let env: Record<string, string> = { A: '1' };
  const directory = createStaticDirectory('http://runtime.test:4001');
  const target = createRuntimeTarget({
    db, baseUrl: 'https://platform.test', placement: createPlacement({ directory, now: Date.now }),
    environmentFor: async () => ({ env, secretEnvKeys: [] }),
    client: async () => ({
      async deliver(request, init) {
        sent.push(request);
        // A node that never answers: the call ends when its signal aborts, with the signal's reason (as undici's does).
        if (options.hang === true) {
          return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error), { once: true }));
        }
        return { outcome: 'ok', status: 200, headers: new Headers(), body: new TextEncoder().encode('{}'), requestId: null, cpuMs: 1, error: null, text: () => '{}' };
      },
    }),
  });
  const add = (version: number, sha: string, hosts: string[]) => versions.set(`app_1@${version}`, {
    app_id: 'app_1', version, target: 'production', manifest: { egressHosts: hosts }, bundle_sha256: sha,
  });
  const delivery = (version: number, timeoutMs = 5_000): OutgoingDelivery => ({
    id: `dlv_${version}`, deliveryClass: 'interactive', type: 'block.action',
    app: { id: 'app_1', slug: 'a', version, hosting: 'platform', endpointUrl: null }, install: { id: 'ins_1', kind: 'workspace' },
    body: JSON.stringify({ id: `dlv_${version}`, object: true }), installToken: 'platapp_t',
    headers: deliveryHeadersSync({ id: `dlv_${version}`, timestamp: Math.floor(Date.now() / 1000), body: JSON.stringify({ id: `dlv_${version}`, object: true }), secrets: [NEW, OLD], deliveryClass: 'interactive', installId: 'ins_1' }),
    timeoutMs, maxResponseBytes: 1024,
  });
  return { target, add, delivery, sent, reads: () => reads, setEnv: (next: Record<string, string>) => (env = next) };
}

describe('runtime target', () => {
  it('reads a version once, the environment every time, and sends the delivery as signed with its install token apart', async () => {
    const w = world();
    w.add(1, 'a'.repeat(64), ['api.example.com']);
    expect((await w.target.send(w.delivery(1))).ok).toBe(true);
    w.setEnv({ A: '2' });
    expect((await w.target.send(w.delivery(1))).ok).toBe(true);
    expect(w.reads()).toBe(1);
    expect(w.sent.map((r) => r.env)).toEqual([{ A: '1' }, { A: '2' }]);
    const sent = w.sent[0]!;
    expect(sent).toMatchObject({
      bundle: { sha256: 'a'.repeat(64) }, target: 'production', egressHosts: ['api.example.com'], installToken: 'platapp_t',
      kind: 'interactive', baseUrl: 'https://platform.test', body: JSON.stringify({ id: 'dlv_1', object: true }),
    });
    expect(JSON.stringify(sent)).not.toContain(NEW);
    // Signed with every live secret: an app mid-rotation verifies with either.
    for (const secret of [NEW, OLD]) expect(await verifyDelivery({ headers: sent.headers, body: sent.body, secret })).toMatchObject({ ok: true, id: 'dlv_1' });
  });

  it('reads each version for itself, and again a version it did not find', async () => {
    const w = world();
    w.add(1, 'a'.repeat(64), []);
    expect(await w.target.send(w.delivery(2))).toMatchObject({ ok: false, failure: 'unavailable' });
    w.add(2, 'b'.repeat(64), []);
    await w.target.send(w.delivery(2));
    await w.target.send(w.delivery(1));
    await w.target.send(w.delivery(2));
    expect(w.reads()).toBe(3);
    expect(w.sent.map((r) => r.bundle.sha256)).toEqual(['b'.repeat(64), 'a'.repeat(64), 'b'.repeat(64)]);
  });

  it('a node that does not answer within the delivery\'s time is a timeout', async () => {
    const w = world({ hang: true });
    w.add(1, 'a'.repeat(64), []);
    expect(await w.target.send(w.delivery(1, 50))).toMatchObject({ ok: false, failure: 'timeout', message: 'no answer within 50 ms' });
  });
});
