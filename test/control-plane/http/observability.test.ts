/**
 * Request ids on every log line and in the response, health and readiness, and metrics labelled by
 * route pattern.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';

class Lines extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') this.lines.push(JSON.parse(line));
    done();
  }
}

let stack: Stack;
const logs = new Lines();

beforeAll(async () => {
  stack = await startStack({ logStream: logs, logLevel: 'debug' });
});
afterAll(async () => stack.stop());

describe('request ids', () => {
  it('honours a sane x-request-id and puts it on every log line of the request', async () => {
    const { apiKey } = await stack.createWorkspace();
    const res = await stack.client(apiKey).request('POST', '/circles', { body: { name: 'Logged', visibility: 'public', extra: 1 }, headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    const mine = logs.lines.filter((l) => l.requestId === 'trace-abc.123');
    expect(mine.map((l) => l.msg)).toEqual(['request rejected', 'request']);
    expect(mine.at(-1)).toMatchObject({ status: 400, method: 'POST', path: '/client/v1/circles' });
  });

  it.each([['has spaces'], ['x'.repeat(200)], ['quote"inject'], ['']])('replaces an insane x-request-id (%j) with a fresh one', async (given) => {
    const res = await stack.fetch('/healthz', { headers: given === '' ? {} : { 'x-request-id': given } });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^req_[a-z2-7]{26}$/);
    expect(logs.lines.some((l) => l.requestId === id && l.msg === 'request')).toBe(true);
  });

  it('gives errors their request id too, and logs unexpected failures with the cause', async () => {
    const res = await stack.fetch('/nowhere', { headers: { 'x-request-id': 'missing-route' } });
    expect(res.headers.get('x-request-id')).toBe('missing-route');
    expect(logs.lines.find((l) => l.requestId === 'missing-route')).toMatchObject({ status: 404 });
  });

  it('never logs an API key', async () => {
    const { apiKey } = await stack.createWorkspace();
    await stack.client(apiKey).get('/me');
    expect(JSON.stringify(logs.lines)).not.toContain(apiKey);
  });
});

describe('health and metrics', () => {
  it('GET /healthz answers 200', async () => {
    const res = await stack.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 while the database answers', async () => {
    const res = await stack.fetch('/readyz');
    expect(res.status).toBe(200);
  });

  it('GET /metrics on the operator port has default metrics and the duration histogram by route pattern, never raw paths', async () => {
    const { client } = await stack.createWorkspace();
    const circle = (await client.post('/circles', { name: 'Metered', visibility: 'public' })).body.circle;
    await client.get(`/circles/${circle.id}`);
    await stack.fetch('/no/such/path/123');
    const res = await fetch(stack.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/client\/v1\/circles\/:circleId",status="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/client\/v1\/circles",status="201"\}/);
    expect(text).toMatch(/route="unmatched",status="404"/);
    expect(text).not.toContain(circle.id);
    expect(text).not.toContain('/no/such/path');
  });

  it('the API port does not serve /metrics; the operator port serves nothing else', async () => {
    const api = await stack.fetch('/metrics');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ _tag: 'PlatformApiNotFoundError', path: [] });
    expect(new URL(stack.metricsUrl).port).not.toBe(new URL(stack.url).port);
    const other = await fetch(new URL('/client/v1/me', stack.metricsUrl));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ _tag: 'PlatformApiNotFoundError' });
  });
});

describe('readiness when the database is gone', () => {
  it('GET /readyz answers 503 PlatformApiServiceUnavailableError while /healthz stays 200', async () => {
    const other = await startStack();
    try {
      await other.db.close();
      const res = await other.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ _tag: 'PlatformApiServiceUnavailableError' });
      expect((await other.fetch('/healthz')).status).toBe(200);
      // And a request that needs the database fails as ours (500), tagged, without details.
      const api = await other.client('platkey_' + 'A'.repeat(43)).get('/me');
      expect(api.status).toBe(500);
      expect(api.body).toEqual({ _tag: 'PlatformApiInternalServerError', message: 'Internal server error', path: [] });
    } finally {
      await other.stop().catch(() => undefined);
    }
  });
});
