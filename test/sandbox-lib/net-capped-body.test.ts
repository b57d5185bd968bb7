// The packages' one capped body reader (sandbox-lib/src/net/capped-body.ts): a Web stream, an async
// iterable, and a Node request over real HTTP on loopback, each within, at and past the cap.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { declaredOver, isPlatformError, readCapped, readCappedEvents } from '@platform/sdk';

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);
const streamOf = (...chunks: Uint8Array[]) => new ReadableStream<Uint8Array>({
  start(controller) {
    for (const chunk of chunks) controller.enqueue(chunk);
    controller.close();
  },
});
async function* iterableOf(...chunks: Uint8Array[]) {
  for (const chunk of chunks) yield chunk;
}

describe('declaredOver', () => {
  it.each([
    [null, false], [undefined, false], ['', false], ['abc', false], ['1e9', false], ['10', false], ['11', true], [' 11 ', true], ['9'.repeat(16), false],
  ] as const)('content-length %j over 10 → %s', (value, over) => {
    expect(declaredOver(value, 10)).toBe(over);
  });
});

describe('readCapped', () => {
  it('joins a Web stream within the cap, and at the cap exactly', async () => {
    expect(await readCapped(streamOf(bytes(4, 1), bytes(6, 2)), 10)).toEqual(new Uint8Array([1, 1, 1, 1, 2, 2, 2, 2, 2, 2]));
  });

  it('answers null one byte past the cap and cancels the stream', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) { controller.enqueue(bytes(6)); },
      cancel() { cancelled = true; },
    });
    expect(await readCapped(stream, 11)).toBeNull();
    expect(cancelled).toBe(true);
  });

  it('reads an async iterable (a Node stream) the same way', async () => {
    expect(await readCapped(iterableOf(bytes(3), bytes(3)), 6)).toEqual(bytes(6));
    expect(await readCapped(iterableOf(bytes(3), bytes(4)), 6)).toBeNull();
  });

  it('reads no body as empty', async () => {
    expect(await readCapped(null, 10)).toEqual(new Uint8Array(0));
  });
});

describe('readCappedEvents over HTTP', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A server that reads each body under `max` and answers what it read (413 past the cap, after which it drains). */
  async function start(max: number, seen: unknown[] = []): Promise<number> {
    server = createServer((req, res) => {
      seen.push('started');
      readCappedEvents(req, max).then((read) => {
        if (read === null) {
          res.writeHead(413).end('too large');
          req.resume();
          return;
        }
        res.writeHead(200).end(String(read.byteLength));
      }, (error: unknown) => {
        seen.push(error);
        res.destroy();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function post(port: number, chunks: Uint8Array[]): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/' }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  it('reads a chunked body within the cap', async () => {
    const port = await start(1000);
    expect(await post(port, [bytes(400), bytes(600)])).toEqual({ status: 200, text: '1000' });
  });

  it('leaves the request paused past the cap, so the server can still answer its 413', async () => {
    const port = await start(1000);
    expect(await post(port, [bytes(600), bytes(600)])).toEqual({ status: 413, text: 'too large' });
  });

  it('rejects with the client\'s tagged error when the client hangs up mid-body', async () => {
    const seen: unknown[] = [];
    const port = await start(1000, seen);
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-length': '900' } });
    req.on('error', () => undefined);
    req.write(bytes(100));
    await expect.poll(() => seen.length).toBe(1);
    req.destroy();
    await expect.poll(() => seen.length).toBe(2);
    expect(isPlatformError(seen[1]) && seen[1].tag).toBe('PlatformApiInvalidRequestError');
  });
});
