/**
 * Self-hosted endpoints and the SSRF guard (issue 13, item 4): the guard is on in every mode;
 * development allows loopback endpoints and nothing else internal; production allows none. Saving
 * an endpoint judges its host (`422` with the reason); a name is judged on the address it resolves
 * to when a delivery connects. An endpoint refused by the guard, one whose port is closed, and one
 * that stays silent give the member the same answer and the Deliveries page the same text.
 */
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { click, startBoardWorld, view, type BoardWorld } from '../blocks/setup.ts';

/** Test names: `loopback.test` resolves to 127.0.0.1, `private.test` to 10.0.0.7 (DNS rebinding, for instance). */
function resolve(hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void): void {
  if (hostname === 'loopback.test') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  if (hostname === 'private.test') return callback(null, [{ address: '10.0.0.7', family: 4 }]);
  callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
}

async function createSelfApp(stack: Stack, url: string, slug: string) {
  const { client } = await stack.createWorkspace();
  return client.post('/apps', { name: 'Endpoint', slug, hosting: 'self', endpoint: { url } });
}

/** A loopback port with nothing listening (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('saving an endpoint', () => {
  let dev: Stack;
  let prod: Stack;
  beforeAll(async () => {
    [dev, prod] = await Promise.all([startStack(), startStack({ env: { NODE_ENV: 'production' } })]);
  });
  afterAll(async () => {
    await Promise.all([dev?.stop(), prod?.stop()]);
  });

  const refusedEverywhere = [
    ['https://10.0.0.1/', 'private'], ['https://192.168.1.20/hook', 'private'], ['https://169.254.169.254/latest', 'link-local (cloud metadata)'],
    ['https://0.0.0.0/', 'unspecified'], ['https://[::]/', 'unspecified'], ['https://[fe80::1]/', 'link-local'], ['https://[fd00::1]/', 'unique local'],
    ['https://[::ffff:10.0.0.1]/', 'IPv4-mapped private'], ['https://100.64.0.1/', 'carrier NAT'], ['https://0x7f000001/', 'loopback'],
  ] as const;

  it.each(refusedEverywhere)('refuses %s in production (%s)', async (url, reason) => {
    const res = await createSelfApp(prod, url, `p${Math.random().toString(36).slice(2, 10)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'endpoint-address', path: ['endpoint', 'url'] });
    expect(res.body.message).toContain(reason);
  });

  it.each(refusedEverywhere.filter(([url]) => url !== 'https://0x7f000001/'))('refuses %s in development too (%s)', async (url, reason) => {
    const res = await createSelfApp(dev, url, `d${Math.random().toString(36).slice(2, 10)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'endpoint-address' });
    expect(res.body.message).toContain(reason);
  });

  it.each(['https://127.0.0.1:8443/', 'http://localhost:3000/platform', 'https://[::1]/'])('refuses loopback %s in production', async (url) => {
    const res = await createSelfApp(prod, url, `l${Math.random().toString(36).slice(2, 10)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.message).toMatch(/loopback/);
  });

  it.each(['https://127.0.0.1:8443/', 'http://localhost:3000/platform', 'https://[::1]/'])('allows loopback %s in development', async (url) => {
    const res = await createSelfApp(dev, url, `a${Math.random().toString(36).slice(2, 10)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('allows public addresses and names in production (names are judged at delivery)', async () => {
    for (const url of ['https://93.184.216.34/hook', 'https://private.test/hook']) {
      const res = await createSelfApp(prod, url, `n${Math.random().toString(36).slice(2, 10)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });
});

describe('delivering', () => {
  it('production: a name resolving to loopback is refused on the address connected to; nothing reaches the app', async () => {
    const w = await startBoardWorld({
      env: { NODE_ENV: 'production' }, deliveries: { resolve },
      endpointFor: (served) => served.replace(/^http:\/\/127\.0\.0\.1/, 'https://loopback.test'),
    });
    try {
      const res = await (await w.app()).post('/blocks', { type: 'board', props: { title: 'x' }, conversationId: w.conversationId });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ _tag: 'PlatformAppDeliveryFailedError', reason: 'unreachable' });
      expect(w.board.deliveries).toEqual([]);
    } finally {
      await w.stop();
    }
  });

  describe('development', () => {
    let w: BoardWorld;
    beforeAll(async () => {
      w = await startBoardWorld({ deliveries: { resolve } });
    });
    afterAll(async () => {
      await w?.stop();
    });

    const actionRecords = async () => (await w.stack.db.query<{ id: string; last_error: string | null }>(
      `select id, last_error from deliveries where install_id = $1 and type = 'block.action'`, [w.installId])).rows;

    async function clickWith(endpointUrl: string | null, label: string) {
      const { id } = await w.insert();
      await view(w.ws.client, id);
      await w.settled();
      const before = new Set((await actionRecords()).map((r) => r.id));
      if (endpointUrl !== null) await w.stack.db.query('update apps set endpoint_url = $2 where id = $1', [w.appId, endpointUrl]);
      try {
        const out = await click(w.ws.client, id, label);
        await w.settled();
        const fresh = (await actionRecords()).filter((r) => !before.has(r.id));
        expect(fresh).toHaveLength(1);
        return { message: out.error?.message as string | undefined, recorded: fresh[0]!.last_error };
      } finally {
        await w.stack.db.query('update apps set endpoint_url = $2 where id = $1', [w.appId, w.board.endpoint]);
      }
    }

    it('refused by the guard, a closed port and a silent endpoint: one answer, one recorded text', { timeout: 20_000 }, async () => {
      const sent = w.board.deliveries.length;
      const guarded = await clickWith(`https://private.test:${new URL(w.board.endpoint).port}/platform`, 'Add one');
      const closed = await clickWith(`http://127.0.0.1:${await closedPort()}/platform`, 'Add one');
      const silent = await clickWith(null, 'raw-hang');
      // Only the silent endpoint was reached at all.
      expect(w.board.deliveries.slice(sent).filter((d) => d.type === 'block.action')).toHaveLength(1);
      expect(guarded).toEqual({ message: "The app didn't answer. Try again.", recorded: "unreachable: the app's endpoint could not be reached" });
      expect(closed).toEqual(guarded);
      expect(silent).toEqual(guarded);
    });
  });
});
