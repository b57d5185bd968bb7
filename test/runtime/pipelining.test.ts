// The runtime node's ingress and internal API over a raw `net` socket (issue 21, item 5): pipelined
// requests are each answered in order, bytes that do not parse get the tagged 400 after the answers
// already due, and a body cut short by a client that hangs up is the client's abort (no error line).
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, openSocket, parseResponses, rawRequest } from '../helpers/raw-http.ts';
import { fixture, startRuntime, type TestRuntime } from './support/runtime.ts';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const text of chunk.toString('utf8').split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
    done();
  },
});

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime({}, { logger: pino({ level: 'debug' }, sink) });
  await rt.deploy('basic', fixture('basic'));
});
afterAll(() => rt?.stop());

const echo = (body: string) => `POST /apps/basic/echo HTTP/1.1\r\nhost: localhost\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('pipelined requests to the runtime node', () => {
  it('a hosted request and garbage in one write: its answer, then the tagged 400', async () => {
    const responses = parseResponses(await exchange(rt.url, `${echo('first')}xx garbage\r\n\r\n`));
    expect(responses.map((r) => r.status)).toEqual([200, 400]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ method: 'POST', body: 'first' });
    expect(responses[1]!.headers.connection).toBe('close');
    expect(JSON.parse(responses[1]!.body)).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', message: 'The request is not well-formed HTTP', path: [] });
  });

  it('two hosted requests and an internal one, then garbage: all answered in order, then the 400', async () => {
    const health = rawRequest('GET', '/healthz', {});
    const responses = parseResponses(await exchange(rt.url, `${echo('one')}${echo('two')}${health}\x01\x02\r\n\r\n`));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 400]);
    expect(JSON.parse(responses[0]!.body).body).toBe('one');
    expect(JSON.parse(responses[1]!.body).body).toBe('two');
  });

  it('a body cut short: no error line, and the node keeps serving', async () => {
    const socket = await openSocket(rt.url);
    const continued = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write('POST /apps/basic/echo HTTP/1.1\r\nhost: localhost\r\ncontent-length: 100\r\nexpect: 100-continue\r\n\r\n');
    await continued;
    socket.write('partial');
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.destroy();
    await closed;
    // The next request on a fresh connection is served; by then the cut one has been handled.
    expect((await rt.route('basic', '/echo', { method: 'POST', body: 'after' })).status).toBe(200);
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});
