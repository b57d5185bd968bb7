/**
 * The access-log line of every request (core/http/request-context.ts) and how a developer's terminal
 * shows log lines (core/log/logger.ts): at `info` where logs are JSON, at `debug` at a terminal, so
 * `npm start` keeps its sign-in link in view; and every pretty entry is one line, fields inline.
 */
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '@platform/control-plane';
import { requestContext } from '../../../control-plane/src/core/http/request-context.ts';
import type { AppEnv } from '../../../control-plane/src/core/http/env.ts';
import { PRETTY_OPTIONS } from '../../../control-plane/src/core/log/logger.ts';

function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({ write(chunk, _enc, done) { text += chunk.toString(); done(); } });
  return { stream, text: () => text };
}

async function serveOne(accessLevel: 'info' | 'debug' | undefined, level: string): Promise<Array<Record<string, unknown>>> {
  const out = collector();
  const logger = pino({ level }, out.stream);
  const app = new Hono<AppEnv>();
  app.use('*', requestContext({ logger, clock: createManualClock(0), ...(accessLevel === undefined ? {} : { accessLevel }) }));
  app.get('/hello', (c) => c.text('hi'));
  expect((await app.request('/hello')).status).toBe(200);
  return out.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the access-log line', () => {
  it('is info by default (JSON logs: the operator\'s access log), with method, path, status and time', async () => {
    const lines = await serveOne(undefined, 'info');
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'request', method: 'GET', path: '/hello', status: 200, ms: 0 })]);
  });

  it('is debug at a developer\'s terminal: not shown at info, shown with LOG_LEVEL=debug', async () => {
    expect(await serveOne('debug', 'info')).toEqual([]);
    expect(await serveOne('debug', 'debug')).toEqual([expect.objectContaining({ level: 20, msg: 'request', path: '/hello' })]);
  });
});

describe('pretty log lines', () => {
  it('print each entry on one line, its fields inline', async () => {
    const out = collector();
    const pretty = PinoPretty({ ...PRETTY_OPTIONS, colorize: false, destination: out.stream, sync: true });
    const logger = pino({ level: 'info' }, pretty);
    logger.info({ requestId: 'req_1', method: 'GET', path: '/x', status: 200, ms: 3 }, 'request');
    logger.error({ err: new Error('boom') }, 'failed');
    pretty.end();
    await new Promise((resolve) => out.stream.once('finish', resolve));
    const lines = out.text().split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/INFO.*request.*"requestId":"req_1".*"path":"\/x"/);
    // An error keeps its stack (pino-pretty prints it below), but its own entry starts on one line.
    expect(lines.filter((l) => /^\[/.test(l))).toHaveLength(2);
  });
});
