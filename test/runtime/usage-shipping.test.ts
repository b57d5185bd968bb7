/**
 * The node's usage counts shipped to a control plane (a loopback HTTP server here, answering as
 * told): deltas per (app, version, install, minute), a batch retried with the same idempotency key
 * until it is acknowledged (new counts go in a batch of their own), at most `maxRows` waiting while
 * the control plane is away (oldest batches given up, and counted), a batch refused as invalid given
 * up at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createUsageMeter } from '../../runtime/src/usage/meter.ts';
import { createUsageShipper } from '../../runtime/src/usage/shipper.ts';

interface Flush { key: string; node: string; rows: Array<Record<string, unknown>> }

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); });
});

/** A control plane that records each flush and answers the next status of `answers` (then 204). */
async function controlPlane(answers: number[]): Promise<{ url: string; seen: Flush[] }> {
  const seen: Flush[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      expect(req.url).toBe('/internal/v1/usage');
      expect(req.headers.authorization).toBe('Bearer s3cret');
      seen.push(JSON.parse(body) as Flush);
      res.writeHead(answers.shift() ?? 204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const MINUTE = 60_000;
const app = { appId: 'app_1', version: 3, installId: 'ins_1' };

describe('usage shipping', () => {
  it('ships exact deltas per app, version, install and minute', async () => {
    let now = 10 * MINUTE + 5;
    const meter = createUsageMeter(() => now);
    const cp = await controlPlane([]);
    const shipper = createUsageShipper({ url: cp.url, secret: 's3cret', nodeId: 'n1', meter, logger: pino({ level: 'silent' }) });
    meter.request(app, 'ok', 1.2345);
    meter.request(app, 'cpu_limit', 50);
    meter.egress(app, 11, 1234);
    meter.request({ ...app, installId: null }, 'error', 0.5);
    now += MINUTE;
    meter.request(app, 'ok', 2);
    await shipper.flush();
    expect(cp.seen).toHaveLength(1);
    const rows = cp.seen[0]!.rows;
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({ ...app, minute: 10 * MINUTE, requestsOk: 1, requestsError: 0, requestsCpuLimit: 1, requestsMemoryLimit: 0, requestsDeadline: 0, requestsCrashed: 0,
      cpuUs: 1235 + 50_000, egressCalls: 1, egressBytesOut: 11, egressBytesIn: 1234 });
    expect(rows[1]).toMatchObject({ installId: null, minute: 10 * MINUTE, requestsError: 1, cpuUs: 500 });
    expect(rows[2]).toMatchObject({ installId: 'ins_1', minute: 11 * MINUTE, requestsOk: 1, cpuUs: 2000 });
    // Taken: the next flush has nothing to send.
    await shipper.flush();
    expect(cp.seen).toHaveLength(1);
  });

  it('retries a batch whose answer failed with the same key; new counts go with a key of their own', async () => {
    const meter = createUsageMeter(() => 0);
    const cp = await controlPlane([503]);
    const shipper = createUsageShipper({ url: cp.url, secret: 's3cret', nodeId: 'n1', meter, logger: pino({ level: 'silent' }) });
    meter.request(app, 'ok', 1);
    await shipper.flush();
    expect(shipper.waiting).toBe(1);
    meter.request(app, 'ok', 1);
    await shipper.flush();
    expect(shipper.waiting).toBe(0);
    expect(cp.seen.map((f) => f.key)).toEqual([cp.seen[0]!.key, cp.seen[0]!.key, cp.seen[2]!.key]);
    expect(cp.seen[2]!.key).not.toBe(cp.seen[0]!.key);
    expect(cp.seen.map((f) => f.rows[0]!.requestsOk)).toEqual([1, 1, 1]);
  });

  it('holds at most maxRows while the control plane is away, giving up the oldest batches', async () => {
    const meter = createUsageMeter(() => 0);
    const cp = await controlPlane(Array(10).fill(503));
    const dropped: number[] = [];
    const shipper = createUsageShipper({ url: cp.url, secret: 's3cret', nodeId: 'n1', meter, logger: pino({ level: 'silent' }), maxRows: 3, dropped: (n) => dropped.push(n) });
    for (let round = 0; round < 3; round++) {
      meter.request({ ...app, installId: `a${round}` }, 'ok', 1);
      meter.request({ ...app, installId: `b${round}` }, 'ok', 1);
      await shipper.flush();
    }
    // Three batches of two rows sealed; past three rows the oldest batch went each time.
    expect(dropped).toEqual([2, 2]);
    expect(shipper.waiting).toBe(2);
    expect(cp.seen.at(-1)!.rows.map((r) => r.installId)).toEqual(['a2', 'b2']);
  });

  it('gives up a batch the control plane refuses as invalid', async () => {
    const meter = createUsageMeter(() => 0);
    const cp = await controlPlane([400]);
    const dropped: number[] = [];
    const shipper = createUsageShipper({ url: cp.url, secret: 's3cret', nodeId: 'n1', meter, logger: pino({ level: 'silent' }), dropped: (n) => dropped.push(n) });
    meter.request(app, 'ok', 1);
    await shipper.flush();
    expect(dropped).toEqual([1]);
    expect(shipper.waiting).toBe(0);
  });
});
