/**
 * Pipelined requests over one connection (issue 21, item 5), over a raw `net` socket: each request
 * is answered in order; bytes that do not parse get the tagged `400` after the answers already due;
 * a body cut short by a client that hangs up is logged as the client's abort, not as our error.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { exchange, openSocket, parseResponses, rawRequest } from '../../helpers/raw-http.ts';

/** Log lines as they are written; `next` resolves on the first line (already written or later) that matches. */
class Lines extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  readonly #waiting: Array<{ test: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }> = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const text of chunk.toString('utf8').split('\n')) {
      if (text.trim() === '') continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      this.lines.push(line);
      for (const w of this.#waiting.filter((x) => x.test(line))) w.resolve(line);
    }
    done();
  }

  next(test: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const seen = this.lines.find(test);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => this.#waiting.push({ test, resolve }));
  }
}

let stack: Stack;
let key: string;
const logs = new Lines();
beforeAll(async () => {
  stack = await startStack({ logStream: logs, logLevel: 'debug' });
  ({ apiKey: key } = await stack.createWorkspace());
});
afterAll(async () => stack.stop());

const createCircle = (name: string) => rawRequest('POST', '/client/v1/circles', { authorization: `Bearer ${key}` }, { name, visibility: 'public' });

async function circleNames(): Promise<string[]> {
  const res = await stack.client(key).get('/circles?limit=100');
  return (res.body.items as Array<{ name: string }>).map((c) => c.name);
}

function expectTaggedMalformed(res: { status: number; headers: Record<string, string>; body: string }) {
  expect(res.status).toBe(400);
  expect(res.headers.connection).toBe('close');
  expect(JSON.parse(res.body)).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', message: 'The request is not well-formed HTTP', path: [] });
}

describe('pipelined requests', () => {
  it('a valid request and garbage in one write: the request is answered, then the tagged 400', async () => {
    const responses = parseResponses(await exchange(stack.url, `${createCircle('Piped one')}xx garbage\r\n\r\n`));
    expect(responses.map((r) => r.status)).toEqual([201, 400]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ circle: { name: 'Piped one' } });
    expectTaggedMalformed(responses[1]!);
    expect(await circleNames()).toContain('Piped one');
  });

  it('two valid requests and garbage: both answered in order, then the 400', async () => {
    const get = rawRequest('GET', '/client/v1/me', { authorization: `Bearer ${key}` });
    const responses = parseResponses(await exchange(stack.url, `${createCircle('Piped two')}${get}\x00\x01 not http\r\n\r\n`));
    expect(responses.map((r) => r.status)).toEqual([201, 200, 400]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ circle: { name: 'Piped two' } });
    expect(JSON.parse(responses[1]!.body)).toHaveProperty('member');
    expectTaggedMalformed(responses[2]!);
  });

  it('garbage alone: the tagged 400 at once', async () => {
    const responses = parseResponses(await exchange(stack.url, 'xx garbage\r\n\r\n'));
    expect(responses).toHaveLength(1);
    expectTaggedMalformed(responses[0]!);
  });

  it('a valid request, then one whose chunked body is malformed: the first answered, then the 400', async () => {
    const broken = `POST /client/v1/circles HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n`;
    const responses = parseResponses(await exchange(stack.url, `${createCircle('Piped three')}${broken}`));
    expect(responses[0]!.status).toBe(201);
    expectTaggedMalformed(responses.at(-1)!);
  });
});

describe('a body cut short', () => {
  it('is logged as the client abort, not as a 5xx of ours', async () => {
    const socket = await openSocket(stack.url);
    // `expect: 100-continue`: the server says `100 Continue` as it hands the request to its handler,
    // so the client hangs up on a request that is being read, not on one never parsed.
    const head = `POST /client/v1/circles HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\nexpect: 100-continue\r\nx-request-id: cut-short-1\r\n\r\n`;
    const continued = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(head);
    await continued;
    socket.write('{"name":');
    socket.destroy();
    const access = await logs.next((l) => l.requestId === 'cut-short-1' && l.msg === 'request');
    expect(access.status).toBe(400);
    const mine = logs.lines.filter((l) => l.requestId === 'cut-short-1');
    expect(mine.map((l) => l.msg)).toContain('client aborted the request');
    expect(mine.filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});
